import test from 'ava';
import { startTestApi } from '#testing/api.js';

test('idle connections are kept for 65 s, and clients are told so they let go first', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const response = await fetch(`${api.url}/live`);
  await response.arrayBuffer();
  t.is(response.headers.get('keep-alive'), 'timeout=65');
});
