import test from 'ava';
import { createUser } from '#testing/api.js';
import { eventually } from '#testing/eventually.js';
import { startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { startHttpFake, type HttpFake } from '#testing/http-fake.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { channelStateOf, messagingTenant } from '#testing/messaging-tenant.js';
import { createConversationRecords } from '#conversations/records.js';

/*
 * Templates and agents' files on the messaging channel, end to end: the real API, worker, Temporal
 * and Redis, the fake platform (its own approved templates, window and media endpoint), and a
 * tenant's file server the agent's URLs point at.
 */

let stack: IngestionStack;
let platform: FakeMessagingPlatform;
let files: HttpFake;
/** Every path (with its query) the file server was asked for. */
const fetched: string[] = [];

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 32)]);
const fileRoutes: Record<string, { type: string; body: Buffer } | undefined> = {
  '/photo.png': { type: 'image/png', body: png },
  '/big.png': { type: 'image/png', body: Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]) },
  '/page.html': { type: 'text/html; charset=utf-8', body: Buffer.from('<html>not an image</html>') },
  '/pretend.png': { type: 'image/png', body: Buffer.from('<html>a page that says it is a PNG</html>') },
  '/terms%20of%20sale.pdf': { type: 'application/pdf', body: pdf },
};

test.before(async () => {
  platform = await startFakeMessagingPlatform();
  files = await startHttpFake((request, response) => {
    fetched.push(request.url ?? '');
    const file = fileRoutes[(request.url ?? '').split('?')[0]!];
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
  });
  stack = await startIngestionStack({ GRAPH_API_BASE_URL: platform.url, CONVERSATION_IDLE_MINUTES: '30' });
});
test.after.always(async () => {
  await stack?.close();
  await files?.close();
  await platform?.close();
});

const channel = () => channelStateOf(stack.api);

/** A connected tenant whose customer wrote, and an agent who took the conversation over. */
async function agentOnConversation(api = stack.api) {
  const tenant = await messagingTenant(api, platform);
  const first = tenant.text('Hello, where is my order?');
  t0(await tenant.send(first));
  const conversationId = (await eventually(
    () => tenant.conversationId(),
    (id) => id !== undefined,
    { timeoutMs: 30_000 },
  ))!;
  const admin = await createUser(api, tenant.tenant.tenant.id, 'admin');
  const agent = await createUser(api, tenant.tenant.tenant.id, 'agent', 'Ada');
  const base = `/agent/conversations/${conversationId}`;
  const asAgent = (method: string, path: string, body?: object) =>
    api.request(method, `${base}${path}`, { headers: agent.headers, ...(body ? { body } : {}) });
  return {
    ...tenant,
    conversationId,
    /** The platform's id of the customer's message. */
    customerMessageId: first.entry[0].changes[0].value.messages[0].id as string,
    agent,
    asAgent,
    register: (body: object) =>
      api.request('POST', `/integrations/app-connections/${tenant.connectionId}/templates`, { headers: admin.headers, body }),
    takeOver: () => asAgent('POST', '/take-over'),
  };
}

function t0(answer: { status: number; body: string }) {
  if (answer.status !== 200) throw new Error(`delivery answered ${answer.status}: ${answer.body}`);
}

/** The customer last wrote 25 hours ago, for us and for the platform. */
async function closeWindow(c: Awaited<ReturnType<typeof agentOnConversation>>) {
  await stack.api.redis.hSet(`${stack.api.config.redis.prefix}:messaging:conversation:${c.conversationId}`, {
    lastCustomerMessageAt: String(Date.now() - 25 * 3600 * 1000),
  });
  platform.closeWindow(c.customer);
}

const orderUpdate = {
  name: 'order_update',
  language: 'en_US',
  category: 'utility',
  body: 'Hello {{1}}, your order {{2}} has shipped.',
};

test('outside the window free text is refused and an approved template goes out, shown as the customer reads it', async (t) => {
  const c = await agentOnConversation();
  t.is((await c.register(orderUpdate)).status, 201);
  platform.approveTemplate({ name: 'order_update', language: 'en_US', bodyParameters: 2 });
  t.is((await c.takeOver()).status, 200);
  await closeWindow(c);

  const offered = await c.asAgent('GET', '/templates');
  t.is(offered.status, 200);
  t.true(Date.parse(offered.body.windowOpenUntil) < Date.now());
  t.deepEqual(
    offered.body.templates.map((template: any) => [template.name, template.language, template.bodyParameters]),
    [['order_update', 'en_US', 2]],
  );

  const text = await c.asAgent('POST', '/messages', { text: 'Your order has shipped.' });
  t.is(text.status, 409);
  t.is(text.body.error.code, 'window_closed');

  const sentBefore = c.received().length;
  const sent = await c.asAgent('POST', '/template-messages', {
    name: 'order_update',
    language: 'en_US',
    parameters: ['Grace', 'A-1042'],
  });
  t.is(sent.status, 202);
  const received = await eventually(
    async () => c.received(),
    (all) => all.length > sentBefore,
    { timeoutMs: 30_000 },
  );
  t.deepEqual(received.at(-1)!.body, {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: c.customer,
    type: 'template',
    template: {
      name: 'order_update',
      language: { code: 'en_US' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Grace' },
            { type: 'text', text: 'A-1042' },
          ],
        },
      ],
    },
  });
  const conversation = await c.asAgent('GET', '');
  const message = conversation.body.messages.find((m: any) => m.id === sent.body.messageId);
  t.like(message, {
    author: 'agent',
    text: 'Hello Grace, your order A-1042 has shipped.',
    template: { name: 'order_update', language: 'en_US', parameters: ['Grace', 'A-1042'] },
  });
  const delivery = await eventually(
    () => channel().deliveryOf(c.conversationId, sent.body.messageId),
    (value) => value !== undefined,
  );
  t.truthy(delivery);
  // Sent again with its id (a retry after a lost answer, say): attached to the first, not sent twice.
  const again = await c.asAgent('POST', '/template-messages', {
    name: 'order_update',
    language: 'en_US',
    parameters: ['Grace', 'A-1042'],
    messageId: sent.body.messageId,
  });
  t.is(again.status, 202);
  t.is(again.body.messageId, sent.body.messageId);
  const transcript = (await c.asAgent('GET', '')).body.messages;
  t.is(transcript.filter((m: any) => m.id === sent.body.messageId).length, 1);
  t.is(c.received().length, sentBefore + 1, 'sent once');
});

test('an unknown template, language or parameter count is refused before anything is sent', async (t) => {
  const c = await agentOnConversation();
  t.is((await c.register(orderUpdate)).status, 201);
  t.is((await c.takeOver()).status, 200);
  await closeWindow(c);
  const callsBefore = c.calls().length;
  const refused = async (body: object, path: string) => {
    const answer = await c.asAgent('POST', '/template-messages', body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.is(answer.body.error.code, 'invalid_payload');
    t.true(
      answer.body.error.details.some((detail: any) => detail.path === path),
      JSON.stringify(answer.body.error),
    );
  };
  await refused({ name: 'order_shipped', language: 'en_US', parameters: ['a', 'b'] }, '/name');
  await refused({ name: 'order_update', language: 'de', parameters: ['a', 'b'] }, '/name');
  await refused({ name: 'order_update', language: 'en_US', parameters: ['Grace'] }, '/parameters');
  await refused({ name: 'order_update', language: 'en_US', parameters: ['Grace', 'A', 'extra'] }, '/parameters');
  await refused({ name: 'order_update', language: 'en_US', parameters: ['Grace', 'line\nbreak'] }, '/parameters');
  await refused({ name: 'order_update', language: 'en_US', parameters: ['Grace', ' '] }, '/parameters');
  await refused({ name: 'Order-Update', language: 'en_US', parameters: [] }, '/name');
  t.is(c.calls().length, callsBefore, 'the platform was not called');
});

test("when the registry and the platform disagree, the platform's refusal is recorded on the message", async (t) => {
  const c = await agentOnConversation();
  // Registered here, but never approved on the platform; and one registered with fewer parameters than approved.
  t.is((await c.register({ ...orderUpdate, name: 'spring_sale', category: 'marketing' })).status, 201);
  t.is((await c.register({ ...orderUpdate, name: 'renewal', body: 'Hi {{1}}, renew now.' })).status, 201);
  platform.approveTemplate({ name: 'renewal', language: 'en_US', bodyParameters: 2 });
  platform.approveTemplate({ name: 'paused_one', language: 'en_US', bodyParameters: 0, status: 'PAUSED' });
  t.is((await c.register({ ...orderUpdate, name: 'paused_one', body: 'We miss you.' })).status, 201);
  t.is((await c.takeOver()).status, 200);
  await closeWindow(c);

  const problemAfter = async (body: object, code: string) => {
    const sent = await c.asAgent('POST', '/template-messages', body);
    t.is(sent.status, 202);
    const problem = await eventually(
      () => channel().problemOf(c.conversationId),
      (value) => value?.code === code,
      { timeoutMs: 30_000 },
    );
    t.is(problem?.code, code);
    t.is((await channel().deliveryOf(c.conversationId, sent.body.messageId))?.status, 'failed');
    return problem!;
  };
  const unknown = await problemAfter({ name: 'spring_sale', language: 'en_US', parameters: ['a', 'b'] }, 'platform_error_132001');
  t.regex(unknown.message, /does not exist/);
  await problemAfter({ name: 'renewal', language: 'en_US', parameters: ['Grace'] }, 'platform_error_132000');
  await problemAfter({ name: 'paused_one', language: 'en_US', parameters: [] }, 'platform_error_132015');
  t.is(c.received().filter((sent) => sent.body.type === 'template').length, 0);
  const inbox = await c.asAgent('GET', '');
  t.is(inbox.body.deliveryProblem.code, 'platform_error_132015');
});

test('an agent sends an image and a document by URL: fetched, uploaded, sent by media id', async (t) => {
  const c = await agentOnConversation();
  t.is((await c.takeOver()).status, 200);
  const before = c.received().length;
  const image = await c.asAgent('POST', '/media-messages', {
    type: 'image',
    url: `${files.url}/photo.png`,
    caption: 'Your parcel, as packed',
  });
  t.is(image.status, 202, JSON.stringify(image.body));
  const document = await c.asAgent('POST', '/media-messages', { type: 'document', url: `${files.url}/terms%20of%20sale.pdf` });
  t.is(document.status, 202, JSON.stringify(document.body));

  const received = await eventually(
    async () => c.received(),
    (all) => all.length >= before + 2,
    { timeoutMs: 30_000 },
  );
  const [imageSent, documentSent] = received.slice(before);
  const uploads = platform.uploaded.filter((upload) => upload.phoneNumberId === c.phoneNumberId);
  t.is(uploads.length, 2);
  t.deepEqual(uploads[0]!.bytes, png);
  t.is(uploads[0]!.contentType, 'image/png');
  t.like(uploads[1], { contentType: 'application/pdf', filename: 'terms of sale.pdf' });
  t.like(imageSent!.body, { type: 'image', image: { id: uploads[0]!.id, caption: '*Ada:* Your parcel, as packed' } });
  t.like(documentSent!.body, { type: 'document', document: { id: uploads[1]!.id, filename: 'terms of sale.pdf' } });
  // Files quote the customer's latest message, as text replies do.
  t.deepEqual(imageSent!.body.context, { message_id: c.customerMessageId });
  t.deepEqual(documentSent!.body.context, { message_id: c.customerMessageId });

  const conversation = await c.asAgent('GET', '');
  const shown = conversation.body.messages.filter((m: any) => m.attachment);
  t.deepEqual(
    shown.map((m: any) => m.text),
    ['[Image] Your parcel, as packed', '[Document: terms of sale.pdf]'],
  );
  t.like(shown[0].attachment, { type: 'image', mediaId: uploads[0]!.id, url: `${files.url}/photo.png` });
});

test('a file the service cannot take is refused with the reason, and nothing reaches the platform', async (t) => {
  const c = await agentOnConversation();
  t.is((await c.takeOver()).status, 200);
  const uploads = () => platform.uploaded.filter((upload) => upload.phoneNumberId === c.phoneNumberId).length;
  const refused = async (body: object, status: number, code: string) => {
    const answer = await c.asAgent('POST', '/media-messages', body);
    t.is(answer.status, status, JSON.stringify(answer.body));
    t.is(answer.body.error.code, code);
    return answer.body.error.message as string;
  };
  t.regex(await refused({ type: 'image', url: `${files.url}/big.png` }, 400, 'media_too_large'), /5 MB/);
  t.regex(await refused({ type: 'image', url: `${files.url}/page.html` }, 400, 'media_type_not_allowed'), /text\/html/);
  await refused({ type: 'image', url: `${files.url}/pretend.png` }, 400, 'media_type_not_allowed');
  await refused({ type: 'document', url: `${files.url}/photo.png` }, 400, 'media_type_not_allowed');
  t.regex(await refused({ type: 'image', url: `${files.url}/missing.png` }, 400, 'media_unavailable'), /404/);
  await refused({ type: 'image', url: 'ftp://files.example/photo.png' }, 400, 'invalid_payload');
  await closeWindow(c);
  await refused({ type: 'image', url: `${files.url}/photo.png` }, 409, 'window_closed');
  t.is(uploads(), 0);
});

test('an agent who does not have the conversation is refused before the file is fetched or uploaded', async (t) => {
  const c = await agentOnConversation();
  const uploads = () => platform.uploaded.filter((upload) => upload.phoneNumberId === c.phoneNumberId).length;
  const url = `${files.url}/photo.png?conversation=${c.conversationId}`;
  const asked = () => fetched.filter((path) => path.includes(c.conversationId)).length;

  const notTaken = await c.asAgent('POST', '/media-messages', { type: 'image', url });
  t.is(notTaken.status, 409, JSON.stringify(notTaken.body));
  t.is(notTaken.body.error.code, 'conflict');
  t.regex(notTaken.body.error.message, /Take the conversation over/);

  const other = await createUser(stack.api, c.tenant.tenant.id, 'agent', 'Grace');
  const path = `/agent/conversations/${c.conversationId}`;
  t.is((await stack.api.request('POST', `${path}/take-over`, { headers: other.headers })).status, 200);
  const takenByAnother = await c.asAgent('POST', '/media-messages', { type: 'image', url });
  t.is(takenByAnother.status, 409, JSON.stringify(takenByAnother.body));
  t.is(takenByAnother.body.error.code, 'conflict');
  t.is(asked(), 0, 'the file was never fetched');
  t.is(uploads(), 0, 'nothing was uploaded');

  // The agent who has it sends the same file: fetched and uploaded once.
  const sent = await stack.api.request('POST', `${path}/media-messages`, {
    headers: other.headers,
    body: { type: 'image', url },
  });
  t.is(sent.status, 202, JSON.stringify(sent.body));
  t.is(asked(), 1);
  t.is(uploads(), 1);
});

test('a token revoked by the time of the upload: 502, and the connection is token_invalid as after a refused send', async (t) => {
  const c = await agentOnConversation();
  t.is((await c.takeOver()).status, 200);
  // Everything so far has gone out (the AI's answer, the notice that Ada joined): the upload is the first to meet the revoked token.
  await eventually(
    () => c.asAgent('GET', ''),
    (read) =>
      read.body.messages.some((m: any) => m.author === 'system') &&
      read.body.messages.every((m: any) => m.author === 'visitor' || m.delivery.status !== 'pending'),
    { timeoutMs: 30_000 },
  );
  const status = () => stack.api.redis.hGet(`${stack.api.config.redis.prefix}:messaging-connection:${c.connectionId}`, 'status');
  t.is(await status(), 'active');
  platform.revokeToken(c.accessToken);

  const refused = await c.asAgent('POST', '/media-messages', {
    type: 'image',
    url: `${files.url}/photo.png?revoked=${c.conversationId}`,
  });
  t.is(refused.status, 502, JSON.stringify(refused.body));
  t.is(refused.body.error.code, 'media_upload_failed');
  t.regex(refused.body.error.message, /code 190/);
  t.is(await status(), 'token_invalid');

  // From then on nothing is fetched, uploaded or sent with it.
  const again = await c.asAgent('POST', '/media-messages', {
    type: 'image',
    url: `${files.url}/photo.png?again=${c.conversationId}`,
  });
  t.is(again.status, 409, JSON.stringify(again.body));
  t.is(again.body.error.code, 'token_invalid');
  t.false(fetched.some((path) => path.includes(`again=${c.conversationId}`)));
});

test('with the production address rules, a URL at a private address is refused (SSRF)', async (t) => {
  const strict = await startIngestionStack(
    { GRAPH_API_BASE_URL: platform.url, OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' },
    { worker: false },
  );
  t.teardown(() => strict.close());
  const c = await agentOnConversation(strict.api);
  // No worker here to take the conversation over: its record says Ada has it, as the worker would write.
  await createConversationRecords(strict.api.redis, strict.api.config.redis.prefix).setStatus(
    { conversationId: c.conversationId, tenantId: c.tenant.tenant.id },
    'agent',
    'Ada',
    c.agent.id,
  );
  for (const url of [`${files.url}/photo.png`, 'http://169.254.169.254/latest/meta-data/iam.png', 'http://[::1]:80/a.png']) {
    const answer = await c.asAgent('POST', '/media-messages', { type: 'image', url });
    t.is(answer.status, 400, url);
    t.is(answer.body.error.code, 'media_refused', url);
    t.regex(answer.body.error.message, /not at a public address/);
  }
});

test('the widget has no templates or files: refused with a clear 409', async (t) => {
  const c = await agentOnConversation();
  // A widget conversation of the same tenant.
  const started = await c.tenant.chat.start();
  const conversationId = started.conversationId as string;
  const agent = await createUser(stack.api, c.tenant.tenant.id, 'agent', 'Ada');
  const asAgent = (method: string, path: string, body?: object) =>
    stack.api.request(method, `/agent/conversations/${conversationId}${path}`, {
      headers: agent.headers,
      ...(body ? { body } : {}),
    });
  t.deepEqual((await asAgent('GET', '/templates')).body, { windowOpenUntil: null, templates: [] });
  const template = await asAgent('POST', '/template-messages', { name: 'order_update', language: 'en_US', parameters: [] });
  t.is(template.status, 409);
  t.is(template.body.error.code, 'unsupported_on_channel');
  const media = await asAgent('POST', '/media-messages', { type: 'image', url: `${files.url}/photo.png` });
  t.is(media.status, 409);
  t.is(media.body.error.code, 'unsupported_on_channel');
});
