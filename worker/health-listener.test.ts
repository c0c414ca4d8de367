import test from 'ava';
import { startHealthListener } from './health-listener.js';

test('/live answers 200; /ready follows the worker; anything else is the one error shape', async (t) => {
  let ready = false;
  const listener = await startHealthListener({ host: '127.0.0.1', port: 0, ready: () => ready });
  t.teardown(() => listener.close());
  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`http://127.0.0.1:${listener.port}${path}`, { method });
    return { status: response.status, body: await response.json() };
  };

  t.deepEqual(await get('/live'), { status: 200, body: { status: 'live' } });
  t.like(await get('/ready'), { status: 503, body: { error: { code: 'unavailable' } } });
  ready = true;
  t.deepEqual(await get('/ready'), { status: 200, body: { status: 'ready' } });
  ready = false;
  t.like(await get('/ready'), { status: 503, body: { error: { code: 'unavailable' } } });

  t.like(await get('/metrics'), { status: 404, body: { error: { code: 'not_found' } } });
  t.like(await get('/ready', 'POST'), { status: 405, body: { error: { code: 'method_not_allowed' } } });
});
