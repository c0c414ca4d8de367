import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startTestApi, type TestApi } from '#testing/api.js';
import { eventually } from '#testing/eventually.js';
import { freePort } from '#testing/processes.js';
import { startOwnRedis, stopOwnRedis } from '#testing/own-redis.js';

let port: number;
let dir: string;
let redis: ChildProcess;
let api: TestApi;

test.before(async () => {
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'redis-outage-'));
  redis = await startOwnRedis(port, dir);
  api = await startTestApi({ REDIS_URL: `redis://127.0.0.1:${port}` });
});

test.after.always(async () => {
  await api?.close();
  if (redis?.exitCode === null) await stopOwnRedis(redis);
  rmSync(dir, { recursive: true, force: true });
});

test('with Redis stopped the API answers 503 naming it, keeps running, and recovers when Redis returns', async (t) => {
  const createTenant = () => api.admin('POST', '/admin/tenants', { name: 'Acme' });
  t.is((await createTenant()).status, 201);

  await stopOwnRedis(redis);

  const health = await api.request('GET', '/health');
  t.is(health.status, 503);
  t.is(health.body.error.code, 'unavailable');
  t.is(health.body.error.message, 'Redis is unavailable.');

  const refused = await createTenant();
  t.is(refused.status, 503);
  t.is(refused.body.error.code, 'unavailable');
  t.regex(refused.body.error.message, /^Redis is unavailable/);
  t.deepEqual(refused.body.error.details, [{ dependency: 'redis', message: 'Redis did not answer.' }]);

  t.is((await api.request('GET', '/live')).status, 200);

  redis = await startOwnRedis(port, dir);
  const recovered = await eventually(createTenant, (response) => response.status === 201);
  t.is(recovered.status, 201);
  t.is(
    (
      await eventually(
        () => api.request('GET', '/ready'),
        (r) => r.status === 200,
      )
    ).status,
    200,
  );
});
