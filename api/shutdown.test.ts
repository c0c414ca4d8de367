import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import test from 'ava';
import { chatClient } from '#testing/chat.js';
import { runEntry } from '#testing/processes.js';

/*
 * SIGTERM to a real API process (the server entry) against the real services: it stops accepting,
 * answers the request under way in full, ends each open event stream with a reconnect hint, and
 * exits 0. The conversations' task queue has no worker: the streams stay open until the shutdown.
 */

test('on SIGTERM the API answers the open request, tells its event streams to reconnect and exits 0', async (t) => {
  const adminToken = `adm_${randomBytes(24).toString('base64url')}`;
  const api = runEntry('api/server.ts', {
    ...process.env,
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'info',
    TEMPORAL_TASK_QUEUE: `shutdown-${randomUUID()}`,
    REDIS_PREFIX: `test-shutdown-${randomBytes(4).toString('hex')}`,
    ADMIN_TOKEN: adminToken,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    SHUTDOWN_GRACE_SECONDS: '60',
  });
  t.teardown(() => api.stop());
  const { url } = JSON.parse(await api.waitFor(/"msg":"api listening"/)) as { url: string };
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };

  const tenant = (await (
    await fetch(`${url}/admin/tenants`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Drain' }) })
  ).json()) as { id: string };
  const operator = (await (
    await fetch(`${url}/admin/tenants/${tenant.id}/operators`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Northwind' }),
    })
  ).json()) as { operatorKey: string };
  const chat = chatClient(url, operator.operatorKey);
  const visitor = await chat.start();

  // The conversation's events stream, and a message's answer stream (no worker answers it).
  const following = await chat.follow(visitor);
  t.is(following.status, 200);
  const followed = following.text();
  const asking = await fetch(`${url}/chat/conversations/${visitor.conversationId}/messages`, {
    method: 'POST',
    headers: { ...visitor.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ text: 'Where is my parcel?' }),
  });
  t.is(asking.status, 200);
  const asked = asking.text();

  // A request under way: its headers are in (the server said 100 Continue), its body not yet.
  const body = JSON.stringify({ name: 'Created while draining' });
  const open = startUpload(`${url}/admin/tenants`, admin, body);
  await open.continued;

  api.child.kill('SIGTERM');
  await api.waitFor(/"msg":"draining/);
  t.is(await connectionRefused(url), 'ECONNREFUSED', 'a new connection is refused');

  const answer = await open.finish();
  t.is(answer.status, 201, answer.text);
  t.like(JSON.parse(answer.text), { name: 'Created while draining' });

  for (const [name, text] of [
    ['events', await followed],
    ['message', await asked],
  ] as const) {
    t.regex(text, /retry: \d+\n\nevent: reconnect\ndata: \{"reason":"shutting_down","retryMs":\d+\}\n\n$/, `${name} stream`);
  }
  t.regex(await asked, /^retry: \d+\n\nevent: accepted\n/, 'the message was accepted before the hint');

  t.is(await api.exited, 0);
  t.regex(api.output(), /"msg":"drained: every request answered"/);
});

/** A POST whose body is sent only when `finish` is called, after the server has answered 100 Continue. */
function startUpload(url: string, headers: Record<string, string>, body: string) {
  const request = httpRequest(url, {
    method: 'POST',
    headers: { ...headers, 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  });
  const continued = new Promise<void>((resolve) => request.on('continue', () => resolve()));
  request.flushHeaders();
  return {
    continued,
    async finish() {
      request.end(body);
      const answer = await response;
      let text = '';
      for await (const chunk of answer) text += chunk;
      return { status: answer.statusCode, text };
    },
  };
}

/** The error code of a new TCP connection to the server, or 'connected'. */
function connectionRefused(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}
