import test from 'ava';
import { startTestApi, type TestApi } from '#testing/api.js';

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

test('/health reports each dependency with its latency', async (t) => {
  const response = await api.request('GET', '/health');
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(response.body.status, 'ok');
  t.deepEqual(Object.keys(response.body.dependencies).sort(), ['redis', 'temporal', 'weaviate']);
  for (const dependency of Object.values(response.body.dependencies) as Array<{ status: string; latencyMs: number }>) {
    t.is(dependency.status, 'up');
    t.true(dependency.latencyMs >= 0);
  }
});

test('a dependency that is not there makes /ready and /health 503, naming it', async (t) => {
  // Nothing listens on these ports: Weaviate and Temporal are "down" for this API only.
  const degraded = await startTestApi({ WEAVIATE_URL: 'http://127.0.0.1:1', TEMPORAL_ADDRESS: '127.0.0.1:1' });
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
    }
    t.is((await degraded.request('GET', '/live')).status, 200);
  } finally {
    await degraded.close();
  }
});
