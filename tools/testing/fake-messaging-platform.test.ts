import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { readWebhookDelivery } from '#messaging/webhook-payload.js';
import { verifySignature } from '#messaging/webhook-signature.js';
import { eventually } from './eventually.js';
import {
  deliver,
  fakeAccessToken,
  graphErrors,
  idempotencyKeyHeader,
  inboundMessageId,
  inboundOf,
  inboundText,
  platformJson,
  readSample,
  startFakeMessagingPlatform,
  statusUpdate,
} from './fake-messaging-platform.js';

const to = '+15550107788';
const text = {
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  type: 'text',
  text: { body: 'Hi', preview_url: false },
};

async function startPlatform(t: { teardown: (fn: () => Promise<void>) => void }) {
  const platform = await startFakeMessagingPlatform();
  t.teardown(() => platform.close());
  const post = async (
    body: unknown,
    { path = '/v23.0/109283746501928/messages', token = fakeAccessToken as string | null } = {},
  ) => {
    const response = await fetch(`${platform.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { platform, post };
}

test('a valid send is answered like the platform: contacts with input and wa_id, a fresh wamid', async (t) => {
  const { platform, post } = await startPlatform(t);
  const answer = await post(text);
  t.is(answer.status, 200);
  const sample = readSample('send-success-response');
  t.deepEqual(Object.keys(answer.body), Object.keys(sample));
  t.deepEqual(answer.body.contacts, sample.contacts);
  t.regex(answer.body.messages[0].id, /^wamid\.[A-Za-z0-9+/=]+$/);
  t.not((await post(text)).body.messages[0].id, answer.body.messages[0].id);
  t.like(platform.sent[0], {
    apiVersion: 'v23.0',
    phoneNumberId: '109283746501928',
    body: text,
    messageId: answer.body.messages[0].id,
  });
  t.deepEqual(
    platform.requests.map(({ status }) => status),
    [200, 200],
  );
});

test('a missing or unknown token is refused as Graph refuses it', async (t) => {
  const { platform, post } = await startPlatform(t);
  const wrong = await post(text, { token: 'EAAwrong' });
  t.is(wrong.status, 401);
  t.deepEqual(Object.keys(wrong.body.error), ['message', 'type', 'code', 'fbtrace_id']);
  t.like(wrong.body.error, {
    message: 'Invalid OAuth access token - Cannot parse access token',
    type: 'OAuthException',
    code: 190,
  });
  t.like((await post(text, { token: null })).body.error, { code: 104 });

  platform.acceptToken('EAAwrong');
  t.is((await post(text, { token: 'EAAwrong' })).status, 200);
  platform.revokeToken(fakeAccessToken);
  t.is((await post(text)).status, 401);
  t.is(platform.sent.length, 1);
});

test('a bad version, number id or body is a code 100 error', async (t) => {
  const { post } = await startPlatform(t);
  const version = await post(text, { path: '/23.0/109283746501928/messages' });
  t.is(version.status, 400);
  t.like(version.body.error, { code: 100, type: 'GraphMethodException' });
  t.like((await post(text, { path: '/v23.0/not-a-number/messages' })).body.error, { code: 100, error_subcode: 33 });
  t.like((await post('{not json')).body.error, { code: 100 });
  t.like((await post({ ...text, messaging_product: undefined })).body.error, { code: 100 });
});

test('an invalid payload is refused with 131009 and the platform error shape', async (t) => {
  const { platform, post } = await startPlatform(t);
  const buttons = readSample('send-buttons-request');
  buttons.interactive.action.buttons.push({ type: 'reply', reply: { id: 'more', title: 'More' } });
  const answer = await post(buttons);
  t.is(answer.status, 400);
  const { fbtrace_id, ...error } = answer.body.error;
  const { fbtrace_id: _, ...expected } = readSample('error-invalid-parameter').error;
  t.deepEqual(error, expected);
  t.regex(fbtrace_id, /^[A-Za-z0-9]{23}$/);
  t.deepEqual(platform.sent, []);
});

test('scripted failures answer the next sends, then sends succeed; mark-as-read is not counted', async (t) => {
  const { platform, post } = await startPlatform(t);
  platform.failNext(2, graphErrors.throughput);
  platform.failNext(1, graphErrors.outsideWindow);

  const inbound = inboundMessageId();
  t.deepEqual((await post({ messaging_product: 'whatsapp', status: 'read', message_id: inbound })).body, { success: true });
  const first = await post(text);
  t.is(first.status, 400);
  t.like(first.body.error, {
    code: 130429,
    message: '(#130429) Rate limit hit',
    error_data: { details: graphErrors.throughput.details },
  });
  t.like((await post(text)).body.error, { code: 130429 });
  const window = await post(text);
  const { fbtrace_id, ...error } = window.body.error;
  const { fbtrace_id: _, ...expected } = readSample('error-outside-window').error;
  t.deepEqual(error, expected);
  t.is((await post(text)).status, 200);

  platform.failNext(1, graphErrors.serverError);
  t.is((await post(text)).status, 500);
  t.deepEqual(
    platform.requests.map(({ status, code }) => [status, code]),
    [
      [200, undefined],
      [400, 130429],
      [400, 130429],
      [400, 131047],
      [200, undefined],
      [500, 131000],
    ],
  );
  t.deepEqual(
    platform.reads.map(({ messageId }) => messageId),
    [inbound],
  );
});

test('only a message a customer sent can be marked read, and the typing indicator is checked', async (t) => {
  const { platform, post } = await startPlatform(t);
  const read = (fields: object) => post({ messaging_product: 'whatsapp', status: 'read', ...fields });
  const ours = await post(text);
  const refusedOurs = await read({ message_id: ours.body.messages[0].id });
  t.is(refusedOurs.status, 400);
  t.like(refusedOurs.body.error, { code: 100, message: '(#100) Invalid parameter' });
  t.regex(refusedOurs.body.error.error_data.details, /only inbound messages/);
  t.like((await read({ message_id: 'wamid.never-delivered' })).body.error, { code: 100 });
  t.like((await read({})).body.error, { code: 100 });
  const inbound = inboundText({ text: 'Hi' }).entry[0].changes[0].value.messages[0].id as string;
  t.like((await read({ message_id: inbound, typing_indicator: { type: 'dots' } })).body.error, { code: 131009 });
  t.like((await post({ messaging_product: 'whatsapp', status: 'delivered', message_id: inbound })).body.error, { code: 100 });
  t.deepEqual((await read({ message_id: inbound, typing_indicator: { type: 'text' } })).body, { success: true });
  t.deepEqual(
    platform.reads.map(({ messageId, typing }) => [messageId, typing]),
    [[inbound, true]],
  );
});

test('a repeated Idempotency-Key is answered with the first id and not delivered again', async (t) => {
  const { platform, post } = await startPlatform(t);
  const send = (body: unknown, key?: string) =>
    fetch(`${platform.url}/v23.0/109283746501928/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${fakeAccessToken}`,
        ...(key ? { [idempotencyKeyHeader]: key } : {}),
      },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

  const first = await send(text, 'c1/m1/0');
  const again = await send(text, 'c1/m1/0');
  t.is(again.status, 200);
  t.is(again.body.messages[0].id, first.body.messages[0].id);
  t.is(platform.sent.length, 1, 'the customer has it once');
  t.not((await send(text, 'c1/m1/1')).body.messages[0].id, first.body.messages[0].id, 'another key is another message');
  t.is(platform.sent.length, 2);
  const reused = await send({ ...text, text: { body: 'Other' } }, 'c1/m1/0');
  t.is(reused.status, 400);
  t.like(reused.body.error, { code: 100 });
  await post(text);
  await post(text);
  t.is(platform.sent.length, 4, 'without a key every send is a message');
});

test('failures can be scripted for one customer, after some sends go through', async (t) => {
  const { platform, post } = await startPlatform(t);
  platform.failNext(1, graphErrors.throughput, { to, after: 1 });
  t.is((await post({ ...text, to: '+15550100000' })).status, 200, 'another customer is not concerned');
  t.is((await post(text)).status, 200, 'the first send for this customer goes through');
  t.like((await post(text)).body.error, { code: 130429 });
  t.is((await post(text)).status, 200);
});

test('a lost answer: the send is taken, and the caller hears nothing until it gives up', async (t) => {
  const { platform } = await startPlatform(t);
  platform.loseAnswers(1, { to });
  const giveUp = new AbortController();
  const call = fetch(`${platform.url}/v23.0/109283746501928/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${fakeAccessToken}`, [idempotencyKeyHeader]: 'k' },
    body: JSON.stringify(text),
    signal: giveUp.signal,
  }).then(
    () => 'answered',
    (error: Error) => error.name,
  );
  await eventually(
    async () => platform.sent.length,
    (count) => count === 1,
  );
  t.is(platform.sent.length, 1, 'the customer has the message');
  giveUp.abort();
  t.is(await call, 'AbortError', 'no answer came');
});

test('a held send waits until it is released', async (t) => {
  const { platform, post } = await startPlatform(t);
  const release = platform.holdNext({ to });
  const answer = post(text);
  await eventually(
    async () => platform.held(),
    (count) => count === 1,
  );
  t.is(platform.sent.length, 0);
  release();
  t.is((await answer).status, 200);
  t.is(platform.held(), 0);
});

test('a customer listed as unavailable cannot be reached: 131026', async (t) => {
  const { platform, post } = await startPlatform(t);
  platform.unavailable('15550107788');
  const answer = await post(text);
  t.is(answer.status, 400);
  t.like(answer.body.error, { code: 131026 });
});

/** A callback that keeps what it receives, raw. */
async function startReceiver(t: { teardown: (fn: () => void) => void }) {
  const received: Array<{ raw: Buffer; headers: IncomingHttpHeaders }> = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received.push({ raw: Buffer.concat(chunks), headers: request.headers });
    response.writeHead(200).end('EVENT_RECEIVED');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/messaging_api/abc`, received };
}

test('deliveries are written as the platform writes them and signed over those bytes', async (t) => {
  const { url, received } = await startReceiver(t);
  const delivery = inboundText({ text: 'Zoë says 👍', name: 'Zoë' });

  t.deepEqual(await deliver(url, delivery, { appSecret: 'app-secret' }), { status: 200, body: 'EVENT_RECEIVED' });
  const [{ raw, headers }] = received as [(typeof received)[0]];
  const written = raw.toString('utf8');
  t.true(written.includes('Zo\\u00eb says \\ud83d\\udc4d'));
  t.regex(written, /^[\x20-\x7e]*$/, 'ASCII only');
  t.notDeepEqual(raw, Buffer.from(JSON.stringify(delivery)));
  t.deepEqual(JSON.parse(written), delivery);
  t.is(headers['content-type'], 'application/json');
  t.true(verifySignature(raw, headers['x-hub-signature-256'] as string, 'app-secret'));
  t.false(verifySignature(Buffer.from(JSON.stringify(delivery)), headers['x-hub-signature-256'] as string, 'app-secret'));

  await deliver(url, '{"raw":true}', { signature: 'sha256=forged' });
  await deliver(url, delivery, { appSecret: 'app-secret', signature: null });
  t.is(received[1]!.raw.toString(), '{"raw":true}');
  t.is(received[1]!.headers['x-hub-signature-256'], 'sha256=forged');
  t.false('x-hub-signature-256' in received[2]!.headers);
});

test('the sample reaction is escaped the way platformJson escapes', (t) => {
  t.true(platformJson(readSample('inbound-reaction')).includes('"emoji":"\\ud83d\\udc4d"'));
});

test('builders make deliveries that read as the events they describe', (t) => {
  const at = new Date('2026-03-05T10:00:00.000Z');
  const image = readWebhookDelivery(
    inboundOf('inbound-image', { phoneNumberId: '42', from: '4915100000000', name: 'Ana', id: 'wamid.X', timestamp: at }),
  );
  t.deepEqual(image, {
    events: [
      {
        kind: 'message',
        phoneNumberId: '42',
        messageId: 'wamid.X',
        from: '4915100000000',
        customerName: 'Ana',
        timestamp: at.toISOString(),
        type: 'image',
        text: '[Image] The box arrived like this',
      },
    ],
    problems: [],
  });

  const [fresh] = readWebhookDelivery(inboundText({ text: 'Hello' })).events as any[];
  t.like(fresh, { phoneNumberId: '109283746501928', from: '15550107788', text: 'Hello' });
  t.true(Date.now() - Date.parse(fresh.timestamp) < 5_000, 'sent now, so the 24-hour window is open');
  t.not((readWebhookDelivery(inboundText({ text: 'Hello' })).events[0] as any).messageId, fresh.messageId);

  const failed = readWebhookDelivery(statusUpdate({ messageId: 'wamid.ours', status: 'failed', recipientId: '15550107788' }));
  t.like(failed.events[0], { kind: 'status', messageId: 'wamid.ours', status: 'failed', error: { code: 131047 } });
  const read = readWebhookDelivery(
    statusUpdate({ phoneNumberId: '42', messageId: 'wamid.ours', status: 'read', recipientId: '1' }),
  );
  t.deepEqual(Object.keys(read.events[0]!), ['kind', 'phoneNumberId', 'messageId', 'status', 'timestamp', 'recipientId']);
});
