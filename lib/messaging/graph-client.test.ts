import test from 'ava';
import { fakeAccessToken, graphErrors, inboundMessageId, startFakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { createGraphClient, GraphApiError, type GraphCredential } from './graph-client.js';
import { buttonMessage, textMessage } from './outbound-message.js';

const credential: GraphCredential = { apiVersion: 'v23.0', phoneNumberId: '109283746501928', accessToken: fakeAccessToken };
const to = '15550107788';

async function setUp(t: { teardown: (fn: () => Promise<void>) => void }) {
  const platform = await startFakeMessagingPlatform();
  t.teardown(() => platform.close());
  return { platform, graph: createGraphClient({ baseUrl: `${platform.url}/` }) };
}

test('sends a message with the credential and answers the platform id of it', async (t) => {
  const { platform, graph } = await setUp(t);
  const payload = textMessage(to, 'Hello there', { replyTo: 'wamid.in' });
  const { messageId } = await graph.sendMessage(credential, payload);
  t.regex(messageId, /^wamid\./);
  t.is(platform.sent.length, 1);
  t.like(platform.sent[0], { apiVersion: 'v23.0', phoneNumberId: credential.phoneNumberId, messageId, body: payload });
});

test('a send retried with its idempotency key after a lost answer is answered with the first id, delivered once', async (t) => {
  const { platform } = await setUp(t);
  const graph = createGraphClient({ baseUrl: platform.url, timeoutMs: 2_000 });
  platform.loseAnswers(1);
  const payload = textMessage(to, 'Only once');
  const lost = await t.throwsAsync(graph.sendMessage(credential, payload, { idempotencyKey: 'conversation/message/0' }));
  t.like(lost, { kind: 'retryable' });
  const { messageId } = await graph.sendMessage(credential, payload, { idempotencyKey: 'conversation/message/0' });
  t.is(platform.sent.length, 1);
  t.is(platform.sent[0]!.messageId, messageId);
});

test('marks a message read, with the typing indicator when asked', async (t) => {
  const { platform, graph } = await setUp(t);
  const [first, second] = [inboundMessageId(), inboundMessageId()];
  await graph.markRead(credential, first);
  await graph.markRead(credential, second, { typing: true });
  t.deepEqual(
    platform.reads.map(({ messageId, typing }) => [messageId, typing]),
    [
      [first, false],
      [second, true],
    ],
  );
  t.deepEqual(platform.sent, []);
});

test('failures throw a GraphApiError sorted by what to do about it', async (t) => {
  const { platform, graph } = await setUp(t);
  const send = () => graph.sendMessage(credential, textMessage(to, 'Hi'));

  platform.failNext(1, graphErrors.throughput);
  t.like(await t.throwsAsync(send, { instanceOf: GraphApiError }), {
    status: 400,
    code: 130429,
    kind: 'retryable',
    retryable: true,
  });
  platform.failNext(1, graphErrors.serverError);
  t.like(await t.throwsAsync(send), { status: 500, code: 131000, kind: 'retryable' });
  platform.failNext(1, graphErrors.outsideWindow);
  t.like(await t.throwsAsync(send), { code: 131047, kind: 'window_closed', details: graphErrors.outsideWindow.details });
  platform.unavailable(to);
  t.like(await t.throwsAsync(send), { code: 131026, kind: 'recipient_unavailable' });

  const invalid = buttonMessage(to, 'Pick', [{ id: 'a', title: 'A' }]);
  invalid.interactive.action.buttons = [];
  const error = await t.throwsAsync(graph.sendMessage(credential, invalid), { instanceOf: GraphApiError });
  t.like(error, { code: 131009, kind: 'invalid_payload' });
  t.truthy(error?.fbtraceId);
});

test('a refused token is token_invalid, and the token appears in no error', async (t) => {
  const { platform, graph } = await setUp(t);
  const secret = 'EAAsecret-token-that-must-not-leak';
  const error = await t.throwsAsync(graph.sendMessage({ ...credential, accessToken: secret }, textMessage(to, 'Hi')), {
    instanceOf: GraphApiError,
  });
  t.like(error, {
    status: 401,
    code: 190,
    kind: 'token_invalid',
    title: 'Invalid OAuth access token - Cannot parse access token',
  });
  t.false(JSON.stringify({ ...error, message: error?.message, stack: error?.stack }).includes(secret));

  platform.revokeToken(fakeAccessToken);
  t.like(await t.throwsAsync(graph.markRead(credential, 'wamid.in')), { kind: 'token_invalid' });
});

test('whatever the platform echoes, the token is redacted', async (t) => {
  const echo: typeof fetch = async (_url, init) =>
    new Response(JSON.stringify({ error: { message: `Bad token ${String((init?.headers as any).authorization)}`, code: 190 } }), {
      status: 401,
    });
  const graph = createGraphClient({ baseUrl: 'https://graph.example', fetch: echo });
  const error = await t.throwsAsync(graph.sendMessage(credential, textMessage(to, 'Hi')));
  t.is(error?.message.includes(fakeAccessToken), false);
  t.regex(error?.message ?? '', /Bearer \[redacted\]/);
});

test('no answer at all is retryable, with no HTTP status and no code', async (t) => {
  const { platform } = await setUp(t);
  const url = platform.url;
  await platform.close();
  const unreachable = createGraphClient({ baseUrl: url });
  t.like(await t.throwsAsync(unreachable.sendMessage(credential, textMessage(to, 'Hi'))), {
    status: null,
    code: null,
    kind: 'retryable',
  });

  const never: typeof fetch = (_url, init) =>
    new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
  const slow = createGraphClient({ baseUrl: 'https://graph.example', fetch: never, timeoutMs: 50 });
  // AbortSignal.timeout's timer does not hold the process open (a real request's socket would): without
  // this, a test process with nothing else to do could end before the timeout fires.
  const holdOpen = setInterval(() => undefined, 1_000);
  t.teardown(() => clearInterval(holdOpen));
  t.like(await t.throwsAsync(slow.sendMessage(credential, textMessage(to, 'Hi'))), {
    status: null,
    kind: 'retryable',
    title: 'no answer within 50 ms',
  });
});

test('a 200 without a message id is an error, and not one to retry (the message may be out)', async (t) => {
  const odd: typeof fetch = async () => new Response('{"messaging_product":"whatsapp","messages":[]}', { status: 200 });
  const graph = createGraphClient({ baseUrl: 'https://graph.example', fetch: odd });
  t.like(await t.throwsAsync(graph.sendMessage(credential, textMessage(to, 'Hi'))), { status: 200, kind: 'permanent' });
});

test('an answer past the byte cap is abandoned: a permanent error, since the message may be out', async (t) => {
  let pulled = 0;
  const endless: typeof fetch = async () =>
    new Response(
      new ReadableStream({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        },
      }),
      { status: 200 },
    );
  const graph = createGraphClient({ baseUrl: 'https://graph.example', fetch: endless, maxResponseBytes: 256 * 1024 });
  const error = await t.throwsAsync(graph.sendMessage(credential, textMessage(to, 'Hi')), { instanceOf: GraphApiError });
  t.like(error, { status: 200, kind: 'permanent', title: 'response larger than 262144 bytes from graph.example' });
  t.true(pulled < 10, `read ${pulled} chunks of an endless answer`);
});
