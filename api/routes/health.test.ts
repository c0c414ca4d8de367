import test from 'ava';
import { startTestApi, type TestApi } from '#testing/api.js';
import { captureLogLines } from '#testing/log-capture.js';
import { cachedDependencyChecks } from '#platform/dependency-health.js';

let api: TestApi;
test.before(async () => {
  api = await startTestApi();
});
test.after.always(() => api?.close());

test('/live answers while the process runs', async (t) => {
  const response = await api.request('GET', '/live');
  t.is(response.status, 200);
  t.deepEqual(response.body, { status: 'live' });
});

test('/ready is 200 when Temporal, Weaviate and Redis all answer', async (t) => {
  const response = await api.request('GET', '/ready');
  t.is(response.status, 200, JSON.stringify(response.body));
  t.deepEqual(response.body, { status: 'ready' });
});

test('/health reports whether each dependency is up, and nothing more about it', async (t) => {
  const response = await api.request('GET', '/health');
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(response.body.status, 'ok');
  t.deepEqual(response.body.dependencies, { redis: { status: 'up' }, temporal: { status: 'up' }, weaviate: { status: 'up' } });
});

test('a dependency that is not there makes /ready and /health 503, naming it, with why only in the log', async (t) => {
  // Nothing listens on these ports: Weaviate and Temporal are "down" for this API only.
  const log = captureLogLines();
  const degraded = await startTestApi({ WEAVIATE_URL: 'http://127.0.0.1:1', TEMPORAL_ADDRESS: '127.0.0.1:1' }, log.sink);
  try {
    for (const path of ['/ready', '/health']) {
      const response = await degraded.request('GET', path);
      t.is(response.status, 503, path);
      t.is(response.body.error.code, 'unavailable');
      t.is(response.body.error.message, 'Weaviate and Temporal are unavailable.');
      const byName = Object.fromEntries(
        response.body.error.details.map((d: { dependency: string; status: string }) => [d.dependency, d.status]),
      );
      t.deepEqual(byName, { redis: 'up', weaviate: 'down', temporal: 'down' });
      // The public learns nothing of the stack's insides: no address, port, error or timing.
      const shown = JSON.stringify(response.body);
      t.notRegex(shown, /127\.0\.0\.1|:1\b|ECONNREFUSED|latency/i, path);
    }
    t.regex(log.lines.join('\n'), /a dependency is down/);
    t.is((await degraded.request('GET', '/live')).status, 200);
  } finally {
    await degraded.close();
  }
});

test('polling the health routes probes the dependencies once per round, shared by every caller', async (t) => {
  let probes = 0;
  let clock = 0;
  const check = async () => {
    probes += 1;
  };
  const probe = cachedDependencyChecks({ redis: check, weaviate: check, temporal: check }, { ttlMs: 1_000, now: () => clock });
  await Promise.all(Array.from({ length: 50 }, () => probe()));
  t.is(probes, 3, 'one probe of each dependency for fifty concurrent callers');
  clock = 999;
  await probe();
  t.is(probes, 3, 'a round stays fresh for ttlMs');
  clock = 1_000;
  await probe();
  t.is(probes, 6, 'then the next caller probes again');
});
