import { connect } from 'node:net';
import test from 'ava';
import { startTestApi } from '#testing/api.js';

test('headers over Node’s limit are refused with 431 in the one error shape', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const response = await fetch(`${api.url}/knowledge-bases`, { headers: { 'x-api-key': 'k'.repeat(20_000) } });
  t.is(response.status, 431);
  t.is((await response.json()).error.code, 'headers_too_large');
});

test('a malformed request line is refused with 400 in the one error shape', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const { port } = new URL(api.url);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /live HTTP/9\r\n\r\n'));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  t.regex(answer, /^HTTP\/1\.1 400 /);
  t.is(JSON.parse(answer.split('\r\n\r\n')[1]!).error.code, 'invalid_payload');
});
