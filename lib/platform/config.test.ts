import test from 'ava';
import { ConfigError, loadConfig } from './config.js';

const localSecrets = () => ({
  adminToken: 'adm_local_token_of_enough_length',
  secretsKey: Buffer.alloc(32, 7).toString('base64'),
});

function problemsOf(fn: () => unknown): string[] {
  const error = (() => {
    try {
      fn();
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  if (!(error instanceof ConfigError)) throw new Error('expected a ConfigError');
  return error.problems;
}

test('the contract defaults apply when nothing is set', (t) => {
  const config = loadConfig({}, { role: 'api', localSecrets });
  t.is(config.port, 3000);
  t.is(config.cdnPort, 3001);
  t.is(config.host, '127.0.0.1');
  t.is(config.temporal.address, '127.0.0.1:7233');
  t.is(config.weaviate.url, 'http://127.0.0.1:8080');
  t.is(config.weaviate.grpcPort, 50051);
  t.is(config.redis.url, 'redis://127.0.0.1:6379');
  t.is(config.graphApiBaseUrl, 'https://graph.facebook.com');
  t.is(config.publicBaseUrl, 'http://127.0.0.1:3000');
  t.is(config.adminToken, 'adm_local_token_of_enough_length');
  t.is(config.secretsKey?.length, 32);
});

test('a stopping process has 30 s of grace by default; the health listener and a gRPC host of its own only when set', (t) => {
  const defaults = loadConfig({}, { role: 'worker', localSecrets });
  t.is(defaults.shutdownGraceMs, 30_000);
  t.is(defaults.healthPort, undefined);
  t.is(defaults.weaviate.grpcHost, undefined);

  const set = loadConfig(
    { SHUTDOWN_GRACE_SECONDS: '0', HEALTH_PORT: '3002', WEAVIATE_GRPC_HOST: 'weaviate-grpc' },
    { role: 'worker', localSecrets },
  );
  t.is(set.shutdownGraceMs, 0);
  t.is(set.healthPort, 3002);
  t.is(set.weaviate.grpcHost, 'weaviate-grpc');
  t.truthy(
    problemsOf(() => loadConfig({ SHUTDOWN_GRACE_SECONDS: '-1' }, { role: 'api', localSecrets })).find((p) =>
      p.startsWith('SHUTDOWN_GRACE_SECONDS'),
    ),
  );
});

test('numbers are read from strings and empty variables count as unset', (t) => {
  const config = loadConfig({ PORT: '8088', CDN_PORT: '', RATE_LIMIT_PER_MINUTE: '5' }, { role: 'api', localSecrets });
  t.is(config.port, 8088);
  t.is(config.cdnPort, 3001);
  t.is(config.rateLimitPerMinute, 5);
});

test('each bad variable is named with what it should be and what it is for', (t) => {
  const problems = problemsOf(() =>
    loadConfig({ PORT: 'abc', WEAVIATE_URL: 'weaviate:8080', LOG_LEVEL: 'loud' }, { role: 'api', localSecrets }),
  );
  t.is(problems.length, 3);
  t.regex(
    problems.find((p) => p.startsWith('PORT'))!,
    /^PORT must be integer \(got "abc"\): port of the REST API/,
  );
  t.truthy(problems.find((p) => p.startsWith('WEAVIATE_URL')));
  t.regex(
    problems.find((p) => p.startsWith('LOG_LEVEL'))!,
    /must be equal to one of the allowed values/,
  );
});

test('a port out of range is refused', (t) => {
  t.regex(problemsOf(() => loadConfig({ CDN_PORT: '70000' }, { role: 'api', localSecrets }))[0]!, /^CDN_PORT must be <= 65535/);
});

test('the value of a bad secret is never echoed', (t) => {
  const [problem] = problemsOf(() => loadConfig({ SECRETS_KEY: 'not-base64-and-secret' }, { role: 'api', localSecrets }));
  t.regex(problem!, /^SECRETS_KEY must match pattern/);
  t.false(problem!.includes('not-base64-and-secret'));
});

test('production requires the secrets and the public address, with no local fallback', (t) => {
  const problems = problemsOf(() => loadConfig({ NODE_ENV: 'production' }, { role: 'api', localSecrets }));
  t.deepEqual(
    problems.map((p) => p.split(' ')[0]),
    ['PUBLIC_BASE_URL', 'ADMIN_TOKEN', 'SECRETS_KEY'],
  );
  t.true(problems.every((p) => p.includes('is required when NODE_ENV is production')));
});

test('production starts when everything required is set', (t) => {
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://api.example.com/',
      ADMIN_TOKEN: 'a'.repeat(40),
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    },
    { role: 'api' },
  );
  t.is(config.env, 'production');
  t.is(config.publicBaseUrl, 'https://api.example.com');
});

test('production requires of each process only the variables it uses', (t) => {
  const worker = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') }, { role: 'worker' });
  t.is(worker.adminToken, undefined);
  t.is(worker.secretsKey?.length, 32);

  const cdn = loadConfig({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.com' }, { role: 'cdn' });
  t.is(cdn.adminToken, undefined);
  t.is(cdn.secretsKey, undefined);
  t.is(cdn.publicBaseUrl, 'https://api.example.com', 'the widget files name the API to the widget');
  t.deepEqual(
    problemsOf(() => loadConfig({ NODE_ENV: 'production' }, { role: 'cdn' })).map((p) => p.split(' ')[0]),
    ['PUBLIC_BASE_URL'],
  );

  t.deepEqual(
    problemsOf(() => loadConfig({ NODE_ENV: 'production' }, { role: 'worker' })).map((p) => p.split(' ')[0]),
    ['SECRETS_KEY'],
  );
});

test('outside production a missing secret without a local fallback is an error', (t) => {
  t.deepEqual(
    problemsOf(() => loadConfig({}, { role: 'api' })),
    ['ADMIN_TOKEN is not set'],
  );
});

test('the local model is the default embedder, with its own evidence rule; the others keep theirs', (t) => {
  const local = loadConfig({}, { role: 'worker', localSecrets });
  t.deepEqual(local.embeddings, { provider: 'local' });
  t.like(local.answerEvidence, { minSimilarity: 0.2, minSentenceSimilarity: 0.475 });
  t.deepEqual(loadConfig({ EMBEDDINGS_MODEL_DIR: '/models/minilm' }, { role: 'worker', localSecrets }).embeddings, {
    provider: 'local',
    modelDir: '/models/minilm',
  });
  const hashed = loadConfig({ EMBEDDINGS_PROVIDER: 'hashed' }, { role: 'worker', localSecrets });
  t.deepEqual(hashed.embeddings, { provider: 'hashed', dimensions: 512 });
  t.like(hashed.answerEvidence, { minSimilarity: 0.15, confidentSimilarity: 2 });
  t.like(
    loadConfig({ EMBEDDINGS_PROVIDER: 'hashed', ANSWER_MIN_SIMILARITY: '0.25' }, { role: 'worker', localSecrets }).answerEvidence,
    {
      minSimilarity: 0.25,
      minCoverage: 1 / 3,
    },
  );
});

test('a vector size for the local model, whose size is its own, is refused with the reason', (t) => {
  const problems = problemsOf(() => loadConfig({ EMBEDDINGS_DIMENSIONS: '512' }, { role: 'worker', localSecrets }));
  t.true(
    problems.some((problem) => problem.includes('EMBEDDINGS_DIMENSIONS') && problem.includes('384')),
    problems.join('\n'),
  );
});

test('connectors reach only public addresses unless allowed; production refuses the allowance', (t) => {
  t.like(loadConfig({}, { role: 'worker', localSecrets }).outbound, {
    allowPrivateNetworks: false,
    maxResponseBytes: 8 * 1024 * 1024,
  });
  t.like(
    loadConfig(
      { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_MAX_RESPONSE_BYTES: '1048576' },
      { role: 'worker', localSecrets },
    ).outbound,
    {
      allowPrivateNetworks: true,
      maxResponseBytes: 1048576,
    },
  );
  const production = {
    NODE_ENV: 'production',
    SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  for (const role of ['worker', 'api'] as const) {
    const problems = problemsOf(() => loadConfig(production, { role }));
    t.true(
      problems.some((problem) =>
        problem.startsWith('OUTBOUND_ALLOW_PRIVATE_NETWORKS must not be true when NODE_ENV is production'),
      ),
      problems.join('\n'),
    );
  }
});

test('the demo page suggests the questions of DEMO_QUESTIONS, a JSON array of strings; none when unset', (t) => {
  t.deepEqual(loadConfig({}, { role: 'cdn', localSecrets }).demoQuestions, []);
  const questions = ['How much does it cost?', 'Is there "2FA"?'];
  t.deepEqual(loadConfig({ DEMO_QUESTIONS: JSON.stringify(questions) }, { role: 'cdn', localSecrets }).demoQuestions, questions);
  for (const bad of ['How much?', '"one"', '[1]', '[""]', JSON.stringify(Array(11).fill('q'))]) {
    t.regex(
      problemsOf(() => loadConfig({ DEMO_QUESTIONS: bad }, { role: 'cdn', localSecrets }))[0]!,
      /^DEMO_QUESTIONS must be a JSON array of at most 10 non-empty strings \(got .*\): questions the demo page/,
      bad,
    );
  }
});

test('metrics are on by default, each process on its own port on this machine; traces only with a collector', (t) => {
  const defaults = loadConfig({}, { role: 'worker', localSecrets }).telemetry;
  t.deepEqual(defaults, { metrics: { enabled: true, host: '127.0.0.1', apiPort: 9464, workerPort: 9465, temporalPort: 9466 } });
  const set = loadConfig(
    { METRICS_ENABLED: 'false', METRICS_HOST: '0.0.0.0', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' },
    { role: 'api', localSecrets },
  ).telemetry;
  t.like(set, { metrics: { enabled: false, host: '0.0.0.0' }, otlpEndpoint: 'http://collector:4318' });
  t.deepEqual(
    problemsOf(() => loadConfig({ METRICS_ENABLED: 'yes', METRICS_PORT: '70000' }, { role: 'api', localSecrets })).length,
    2,
  );
});
