import { randomBytes } from 'node:crypto';
import test from 'ava';
import { startFakeOtlpCollector } from '#testing/fake-otlp-collector.js';
import { freePort, runEntry } from '#testing/processes.js';
import { eventually } from '#testing/eventually.js';
import { parsePrometheusText, sumOf } from '#testing/prometheus-text.js';

const baseEnv = () => ({
  ...process.env,
  NODE_ENV: 'test',
  PORT: '0',
  LOG_LEVEL: 'info',
  REDIS_PREFIX: `test-server-${randomBytes(4).toString('hex')}`,
  ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
  SECRETS_KEY: randomBytes(32).toString('base64'),
});

test('the API process starts, listens and reports ready against the real services', async (t) => {
  const api = runEntry('api/server.ts', baseEnv());
  try {
    const line = await api.waitFor(/"msg":"api listening"/);
    const { url } = JSON.parse(line) as { url: string };
    t.regex(url, /^http:\/\/127\.0\.0\.1:\d+$/);

    const ready = await fetch(`${url}/ready`);
    t.is(ready.status, 200, await ready.clone().text());
    t.deepEqual(await ready.json(), { status: 'ready' });

    await api.stop();
    t.is(await api.exited, 0);
    t.regex(api.output(), /"msg":"shutting down"/);
  } finally {
    await api.stop();
  }
});

test('a bad variable stops the API at start-up with a message naming it', async (t) => {
  const api = runEntry('api/server.ts', { ...baseEnv(), PORT: 'eighty', REDIS_URL: 'localhost:6379' });
  t.is(await api.exited, 1);
  t.regex(api.output(), /Invalid configuration:/);
  t.regex(api.output(), /PORT must be integer \(got "eighty"\)/);
  t.regex(api.output(), /REDIS_URL must match pattern/);
});

test('in production a missing secret stops the API, naming it', async (t) => {
  const { ADMIN_TOKEN: _unset, ...env } = baseEnv();
  const api = runEntry('api/server.ts', { ...env, NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.com' });
  t.is(await api.exited, 1);
  t.regex(api.output(), /ADMIN_TOKEN is required when NODE_ENV is production/);
});

test('the API process serves its metrics on their own port, never on the public one', async (t) => {
  const metricsPort = await freePort();
  const api = runEntry('api/server.ts', { ...baseEnv(), METRICS_ENABLED: 'true', METRICS_PORT: String(metricsPort) });
  try {
    const metricsLine = await api.waitFor(/"msg":"metrics endpoint listening"/);
    t.is(JSON.parse(metricsLine).url, `http://127.0.0.1:${metricsPort}/metrics`);
    const { url } = JSON.parse(await api.waitFor(/"msg":"api listening"/)) as { url: string };
    t.is((await fetch(`${url}/ready`)).status, 200);

    t.is((await fetch(`${url}/metrics`)).status, 404, 'the public port has no metrics');
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    t.is(scraped.status, 200);
    t.regex(scraped.headers.get('content-type') ?? '', /^text\/plain/);
    const samples = parsePrometheusText(await scraped.text());
    t.true(sumOf(samples, 'kb_http_requests_total', { method: 'GET', route: '/ready', status: '200' }) >= 1);
    t.true(sumOf(samples, 'kb_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }) >= 1);
  } finally {
    await api.stop();
  }
});

test('with a collector configured, the API process sends its spans there, each request with its request id', async (t) => {
  const collector = await startFakeOtlpCollector();
  const api = runEntry('api/server.ts', { ...baseEnv(), OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
  try {
    const { url } = JSON.parse(await api.waitFor(/"msg":"api listening"/)) as { url: string };
    const answered = await fetch(`${url}/knowledge-bases`, { headers: { 'x-request-id': 'otlp-test-1' } });
    t.is(answered.status, 401);
    t.is(answered.headers.get('x-request-id'), 'otlp-test-1');
    // The batch goes out at the latest when the process stops.
    await api.stop();
    const [span] = await eventually(
      async () => collector.spans.filter((s) => s.attributes['kb.request_id'] === 'otlp-test-1'),
      (found) => found.length > 0,
    );
    t.like(span, {
      name: 'GET /knowledge-bases',
      serviceName: 'kb-api',
      attributes: { 'http.route': '/knowledge-bases', 'http.response.status_code': 401 },
    });
    t.regex(api.output(), new RegExp(`"traceId":"${span!.traceId}"`), 'the request log line names the trace');
  } finally {
    await api.stop();
    await collector.close();
  }
});
