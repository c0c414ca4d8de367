import { randomBytes } from 'node:crypto';
import test from 'ava';
import { runEntry } from '#testing/processes.js';

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
