/**
 * Checks the production deployment files against each other, against deploy/versions.json and
 * against the table of environment variables, so that a version bump, a new variable or a moved
 * entry file cannot leave the deployment behind unnoticed. It only reads files: no container engine.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { parse } from 'yaml';
import { variables, type VariableSpec } from '#platform/config-variables.js';
import { pinnedModel } from '#knowledge/embeddings/minilm/model-files.js';
import { apiStopDeadlineMs } from '#api/shutdown.js';
import { workerStopDeadlineMs } from '#worker/shutdown.js';
import { temporalDynamicConfig } from './local/services/temporal-tuning.js';

type AppService = 'api' | 'worker' | 'cdn';

interface Build {
  context?: string;
  dockerfile?: string;
  args?: Record<string, string>;
}

/** The part of a compose service these checks read. */
interface Service {
  image?: string;
  build?: string | Build;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null>;
  ports?: Array<string | { published?: string | number }>;
  depends_on?: string[] | Record<string, { condition?: string }>;
  deploy?: { replicas?: number };
  healthcheck?: object;
  volumes?: string[];
  stop_grace_period?: string;
}

interface Versions {
  node: string;
  go: string;
  postgres: string;
  redis: string;
  caddy: string;
  'temporal-ui': string;
  goTools: Record<'temporal-cli' | 'weaviate' | 'temporal-server' | 'temporal-sql-tool', { version: string }>;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const deployDir = fileURLToPath(new URL('.', import.meta.url));
const inRepo = (path: string) => resolve(repoRoot, path);

// `merge` resolves the `<<: *anchor` keys that compose supports.
const compose = parse(readFileSync(inRepo('deploy/compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const versions = JSON.parse(readFileSync(inRepo('deploy/versions.json'), 'utf8')) as Versions;
const specs: Record<string, VariableSpec> = variables;

const appServices: AppService[] = ['api', 'worker', 'cdn'];
const appDockerfile = inRepo('deploy/docker/app.Dockerfile');
const temporalDockerfile = inRepo('deploy/docker/temporal.Dockerfile');

/** Where each variable whose default is a loopback address must point inside the stack. */
const inStackAddresses: Record<string, string> = {
  HOST: '0.0.0.0',
  // Prometheus scrapes the metrics ports over the stack's network (they are never published).
  METRICS_HOST: '0.0.0.0',
  TEMPORAL_ADDRESS: 'temporal:7233',
  WEAVIATE_URL: 'http://weaviate:8080',
  REDIS_URL: 'redis://redis:6379',
};

test('pinned versions agree with deploy/versions.json', (t) => {
  const temporalBuilds = Object.entries(services).filter(([, s]) => dockerfilePath(s) === temporalDockerfile);
  t.true(temporalBuilds.length >= 2, 'temporal and temporal-schema should build deploy/docker/temporal.Dockerfile');
  for (const [name, s] of temporalBuilds) {
    const args = typeof s.build === 'object' ? (s.build.args ?? {}) : {};
    t.is(args.TEMPORAL_VERSION, versions.goTools['temporal-server'].version, `${name}: build arg TEMPORAL_VERSION`);
    t.is(args.TEMPORAL_CLI_VERSION, versions.goTools['temporal-cli'].version, `${name}: build arg TEMPORAL_CLI_VERSION`);
  }
  // The image builds the SQL tool from the server module, so both must be the same version.
  t.is(
    versions.goTools['temporal-sql-tool'].version,
    versions.goTools['temporal-server'].version,
    'SQL tool and server versions',
  );

  t.is(tagOf('weaviate'), versions.goTools.weaviate.version.replace(/^v/, ''), 'weaviate image tag');
  t.is(tagOf('postgres').split(/[.-]/)[0], versions.postgres, 'postgres image major version');
  t.is(tagOf('redis').split(/[.-]/)[0], versions.redis, 'redis image major version');
  t.is(tagOf('temporal-ui'), versions['temporal-ui'], 'temporal-ui image tag');
  t.is(tagOf('api-proxy'), versions.caddy, 'api-proxy (caddy) image tag');

  for (const image of baseImages(appDockerfile)) t.true(isVersion(image, 'node', versions.node), `app.Dockerfile: FROM ${image}`);
  const goImages = baseImages(temporalDockerfile).filter((image) => image.startsWith('golang:'));
  t.true(goImages.length > 0, 'temporal.Dockerfile should build in a golang image');
  for (const image of goImages) t.true(isVersion(image, 'golang', versions.go), `temporal.Dockerfile: FROM ${image}`);
});

for (const name of appServices) {
  test(`${name} sets every variable production needs, pointing inside the stack`, (t) => {
    const environment = service(name).environment ?? {};
    t.is(environment.NODE_ENV, 'production', `${name}: NODE_ENV`);
    for (const [variable, spec] of Object.entries(specs)) {
      const local = /127\.0\.0\.1|localhost/.test(String(spec.default ?? ''));
      if (!spec.usedBy.includes(name) || !(spec.requiredInProduction || local)) continue;

      const value = environment[variable];
      if (value === undefined || value === null || value === '') {
        t.fail(`${name} must set ${variable} (${spec.description})`);
        continue;
      }
      if (local) {
        const expected = inStackAddresses[variable];
        if (expected === undefined) {
          t.fail(`${variable} defaults to a loopback address: add where it points inside the stack to inStackAddresses`);
        } else {
          t.is(String(value), expected, `${name}: ${variable} must point at its compose service`);
        }
        const host = hostOf(String(value));
        if (host !== '0.0.0.0') t.truthy(services[host], `${name}: ${variable} names "${host}", which is no compose service`);
      }
      if (spec.requiredInProduction && spec.secret) {
        t.true(
          String(value).startsWith(`\${${variable}:?`),
          `${name}: ${variable} is a secret: take it from the operator as \${${variable}:?...}, never a literal`,
        );
      }
    }
  });
}

test('every dependency exists and is awaited until healthy or completed', (t) => {
  for (const [name, s] of Object.entries(services)) {
    for (const [target, condition] of dependencies(s)) {
      t.truthy(services[target], `${name} depends on "${target}", which compose.yaml does not define`);
      t.true(
        condition === 'service_healthy' || condition === 'service_completed_successfully',
        `${name} should wait for ${target} to be healthy or to have completed, not merely started`,
      );
      if (condition === 'service_healthy') {
        t.truthy(services[target]?.healthcheck, `${name} waits for ${target} to be healthy, but ${target} has no healthcheck`);
      }
    }
  }
  t.is(
    conditionOf('temporal', 'temporal-schema'),
    'service_completed_successfully',
    'temporal starts once the schema job has succeeded',
  );
  t.is(service('temporal-ui').environment?.TEMPORAL_ADDRESS, 'temporal:7233', 'temporal-ui points at the frontend');
});

test('the Temporal server config reaches the compose postgres', (t) => {
  const config = parse(readFileSync(inRepo('deploy/docker/temporal-config.yaml'), 'utf8')) as {
    persistence: { numHistoryShards: number; datastores: Record<string, { sql?: { pluginName: string; connectAddr: string } }> };
  };
  t.true(config.persistence.numHistoryShards >= 2, 'temporal-config.yaml: numHistoryShards');
  for (const [store, { sql }] of Object.entries(config.persistence.datastores)) {
    t.is(sql?.pluginName, 'postgres12', `temporal-config.yaml: ${store} store plugin`);
    t.truthy(
      services[hostOf(sql?.connectAddr ?? '')]?.image?.startsWith('postgres:'),
      `temporal-config.yaml: ${store} store should reach the postgres service`,
    );
  }
});

test('the container Temporal runs with the same dynamic config as the local profiles', (t) => {
  const dynamic = parse(readFileSync(inRepo('deploy/docker/temporal-dynamicconfig.yaml'), 'utf8')) as Record<
    string,
    Array<{ value: unknown }>
  >;
  t.deepEqual(Object.fromEntries(Object.entries(dynamic).map(([key, [first]]) => [key, first?.value])), temporalDynamicConfig);
  const config = parse(readFileSync(inRepo('deploy/docker/temporal-config.yaml'), 'utf8')) as {
    dynamicConfigClient?: { filepath: string };
  };
  t.is(config.dynamicConfigClient?.filepath, '/etc/temporal/config/dynamicconfig.yaml');
  t.regex(
    readFileSync(inRepo('deploy/docker/temporal.Dockerfile'), 'utf8'),
    /COPY temporal-dynamicconfig\.yaml \/etc\/temporal\/config\/dynamicconfig\.yaml/,
  );
});

test('the public ports are published, the API one through its proxy', (t) => {
  const expected: Record<string, number> = { 'api-proxy': 3000, cdn: 3001, 'temporal-ui': 8233, temporal: 7233 };
  for (const [name, port] of Object.entries(expected)) {
    t.true(publishedPorts(service(name)).includes(port), `${name} should publish port ${port}`);
  }
  // Replicas cannot share a host port, so the proxy holds 3000 and forwards to the API's own port.
  const proxy = commandOf(service('api-proxy'));
  const caddyfile = proxy[proxy.indexOf('--config') + 1];
  const mounted = (service('api-proxy').volumes ?? []).find((volume) => volume.split(':')[1] === caddyfile);
  t.truthy(mounted, `api-proxy should mount its ${caddyfile}`);
  const config = readFileSync(resolve(deployDir, mounted!.split(':')[0]!), 'utf8');
  const directives = config.replace(/#.*$/gm, '');
  t.regex(
    directives,
    new RegExp(`reverse_proxy api:${service('api').environment?.PORT}\\b`),
    'api-proxy forwards to the API port',
  );
});

test("the API reads the client address from the one proxy in front of it, which trusts nobody's X-Forwarded-For", (t) => {
  const config = readFileSync(inRepo('deploy/caddy/Caddyfile'), 'utf8').replace(/#.*$/gm, '');
  t.notRegex(config, /trusted_proxies/, 'Caddy replaces what clients send: one trusted hop');
  t.is(service('api').environment?.TRUSTED_PROXY_HOPS, '1');
});

test('api and worker run at least two replicas', (t) => {
  for (const name of ['api', 'worker']) {
    t.true((service(name).deploy?.replicas ?? 1) >= 2, `${name} should set deploy.replicas to 2 or more`);
  }
});

test('the engine waits for api and worker to finish their shutdown before it kills them', (t) => {
  const graceMs = Number(specs.SHUTDOWN_GRACE_SECONDS!.default) * 1000;
  const deadlines: Record<string, number> = { api: apiStopDeadlineMs(graceMs), worker: workerStopDeadlineMs(graceMs) };
  for (const [name, deadlineMs] of Object.entries(deadlines)) {
    const period = /^(\d+)s$/.exec(service(name).stop_grace_period ?? '10s');
    t.true(Number(period?.[1]) * 1000 > deadlineMs, `${name}: stop_grace_period must exceed its ${deadlineMs / 1000} s shutdown`);
  }
});

test('redis keeps an append-only file and weaviate runs without modules or telemetry', (t) => {
  const redis = commandOf(service('redis'));
  t.is(redis[redis.indexOf('--appendonly') + 1], 'yes', 'redis should run with --appendonly yes');

  const weaviate = service('weaviate').environment ?? {};
  t.is(weaviate.DEFAULT_VECTORIZER_MODULE, 'none', 'weaviate: DEFAULT_VECTORIZER_MODULE');
  t.is(weaviate.ENABLE_MODULES, '', 'weaviate: ENABLE_MODULES should be empty');
  t.is(weaviate.DISABLE_TELEMETRY, 'true', 'weaviate: DISABLE_TELEMETRY');
});

test('every build names an existing Dockerfile, and the app image runs as a non-root user', (t) => {
  for (const [name, s] of Object.entries(services)) {
    const path = dockerfilePath(s);
    if (path) t.true(existsSync(path), `${name} builds ${relative(repoRoot, path)}, which does not exist`);
  }
  const instructions = dockerfile(appDockerfile);
  const finalStage = instructions.slice(instructions.findLastIndex(([keyword]) => keyword === 'FROM'));
  const user = finalStage.findLast(([keyword]) => keyword === 'USER')?.[1] ?? 'root';
  t.false(/^(root|0)(:|$)/.test(user), `the final stage of app.Dockerfile runs as ${user}: add a USER that is not root`);
});

test('the app image carries the pinned embedding model, converted in the stage that fetches it', (t) => {
  const instructions = dockerfile(appDockerfile);
  const setUp = instructions.findIndex(
    ([keyword, args]) => keyword === 'RUN' && args.includes('deploy/local/embedding-model.ts'),
  );
  if (setUp < 0) {
    t.fail('app.Dockerfile should run deploy/local/embedding-model.ts');
    return;
  }
  const folder = `/app/models/${pinnedModel.name}`;
  t.true(instructions[setUp]![1].endsWith(` ${folder}`), `the set-up should put the model in ${folder}`);
  const stageStart = instructions.slice(0, setUp).findLastIndex(([keyword]) => keyword === 'FROM');
  const stage = instructions.slice(stageStart, setUp);
  t.true(
    stage.some(([keyword, args]) => keyword === 'RUN' && /apt-get install .*\bpython3-onnx\b/.test(args)),
    'the stage that fetches the model installs python3-onnx before the set-up converts it',
  );
  const finalStage = instructions.slice(instructions.findLastIndex(([keyword]) => keyword === 'FROM'));
  t.true(
    finalStage.some(([keyword, args]) => keyword === 'ENV' && args === `EMBEDDINGS_MODEL_DIR=${folder}`),
    `the final stage should set EMBEDDINGS_MODEL_DIR=${folder}`,
  );
});

test('api, worker and cdn run the compiled form of an existing source file', (t) => {
  for (const name of appServices) {
    t.is(dockerfilePath(service(name)), appDockerfile, `${name} should build deploy/docker/app.Dockerfile`);
    const entry = commandOf(service(name)).find((arg) => /^dist\/.+\.js$/.test(arg));
    if (!entry) {
      t.fail(`${name} should run an entry file under dist/`);
      continue;
    }
    // tsconfig.build.json compiles <path>.ts to dist/<path>.js.
    const source = entry.replace(/^dist\//, '').replace(/\.js$/, '.ts');
    t.true(existsSync(inRepo(source)), `${name} runs ${entry}, compiled from ${source}, which does not exist`);
  }
});

function service(name: string): Service {
  const found = services[name];
  if (!found) throw new Error(`compose.yaml has no service "${name}"`);
  return found;
}

function tagOf(name: string): string {
  const image = service(name).image ?? '';
  return image.slice(image.lastIndexOf(':') + 1);
}

/** `golang:1.25-bookworm` is version 1.25 of golang; `golang:1.250` is not. */
function isVersion(image: string, repository: string, version: string): boolean {
  const prefix = `${repository}:${version}`;
  return image === prefix || image.startsWith(`${prefix}-`);
}

function commandOf(s: Service): string[] {
  return typeof s.command === 'string' ? s.command.split(/\s+/) : (s.command ?? []);
}

/** The Dockerfile a service builds, as an absolute path; compose resolves it from the build context. */
function dockerfilePath(s: Service): string | undefined {
  if (s.build === undefined) return undefined;
  const build = typeof s.build === 'string' ? { context: s.build } : s.build;
  return resolve(deployDir, build.context ?? '.', build.dockerfile ?? 'Dockerfile');
}

function dependencies(s: Service): Array<[string, string | undefined]> {
  if (Array.isArray(s.depends_on)) return s.depends_on.map((name) => [name, undefined]);
  return Object.entries(s.depends_on ?? {}).map(([name, { condition }]) => [name, condition]);
}

function conditionOf(name: string, target: string): string | undefined {
  return dependencies(service(name)).find(([dependency]) => dependency === target)?.[1];
}

/** Host ports of `ports`, in either syntax: "3000:3000", "127.0.0.1:7233:7233" or { published }. */
function publishedPorts(s: Service): number[] {
  return (s.ports ?? []).map((port) => Number(typeof port === 'string' ? port.split(':').at(-2) : port.published));
}

/** The host of `host:port` or of a URL. */
function hostOf(address: string): string {
  return new URL(address.includes('://') ? address : `tcp://${address}`).hostname;
}

/** A Dockerfile's instructions as [KEYWORD, arguments], with continuation lines joined and comments dropped. */
function dockerfile(path: string): Array<[string, string]> {
  return readFileSync(path, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return [keyword.toUpperCase(), rest.join(' ')];
    });
}

/** The images the FROM lines of a Dockerfile start from (flags such as --platform skipped). */
function baseImages(path: string): string[] {
  return dockerfile(path)
    .filter(([keyword]) => keyword === 'FROM')
    .map(([, args]) => args.split(/\s+/).find((arg) => !arg.startsWith('--')) ?? '');
}
