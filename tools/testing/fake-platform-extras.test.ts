import test from 'ava';
import { choiceMessages } from '#messaging/outbound-message.js';
import { fakeAccessToken, startFakeMessagingPlatform } from './fake-messaging-platform.js';

/*
 * The fake platform's templates, window and media endpoint answer as the Cloud API does: its codes,
 * statuses and error shape. And the list messages the AI's choices become are what it accepts.
 */

const number = '109283746501928';

async function startPlatform(t: { teardown: (fn: () => Promise<void>) => void }) {
  const platform = await startFakeMessagingPlatform();
  t.teardown(() => platform.close());
  const send = async (body: object) => {
    const response = await fetch(`${platform.url}/v23.0/${number}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fakeAccessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...body }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const upload = async (type: string, bytes: Buffer, { product = 'whatsapp', token = fakeAccessToken } = {}) => {
    const form = new FormData();
    form.set('messaging_product', product);
    form.set('type', type);
    form.set('file', new Blob([new Uint8Array(bytes)], { type }), 'file');
    const response = await fetch(`${platform.url}/v23.0/${number}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { platform, send, upload };
}

test('outside its window the platform refuses free text with 131047 and takes an approved template', async (t) => {
  const { platform, send } = await startPlatform(t);
  const to = '4915112345678';
  platform.closeWindow(to);
  platform.approveTemplate({ name: 'hello_again', language: 'en', bodyParameters: 1 });
  const text = await send({ to, type: 'text', text: { body: 'hi' } });
  t.is(text.status, 400);
  t.like(text.body.error, { code: 131047, message: '(#131047) Re-engagement message', type: 'OAuthException' });

  const template = (parameters: object[], name = 'hello_again', code = 'en') =>
    send({ to, type: 'template', template: { name, language: { code }, components: [{ type: 'body', parameters }] } });
  t.is((await template([{ type: 'text', text: 'Grace' }])).status, 200);
  t.is(platform.sent.at(-1)!.body.type, 'template');

  const wrongLanguage = await template([{ type: 'text', text: 'Grace' }], 'hello_again', 'de');
  t.is(wrongLanguage.status, 404);
  t.like(wrongLanguage.body.error, {
    code: 132001,
    error_data: { messaging_product: 'whatsapp', details: 'template name (hello_again) does not exist in de' },
  });
  t.like((await template([{ type: 'text', text: 'Grace' }], 'no_such')).body.error, { code: 132001 });
  const count = await template([]);
  t.is(count.status, 400);
  t.like(count.body.error, { code: 132000 });
  t.like((await template([{ type: 'currency', currency: {} }])).body.error, { code: 132012 });
  platform.approveTemplate({ name: 'hello_again', language: 'en', bodyParameters: 1, status: 'PAUSED' });
  t.like((await template([{ type: 'text', text: 'Grace' }])).body.error, { code: 132015 });
  platform.approveTemplate({ name: 'hello_again', language: 'en', bodyParameters: 1, status: 'DISABLED' });
  t.like((await template([{ type: 'text', text: 'Grace' }])).body.error, { code: 132016 });

  platform.openWindow(to);
  t.is((await send({ to, type: 'text', text: { body: 'hi' } })).status, 200);
});

test('the media endpoint takes the platform types within its sizes; a send names an uploaded id', async (t) => {
  const { platform, send, upload } = await startPlatform(t);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const uploaded = await upload('image/png', png);
  t.is(uploaded.status, 200);
  t.regex(uploaded.body.id, /^\d{16}$/);
  t.like(platform.uploaded[0], { id: uploaded.body.id, phoneNumberId: number, contentType: 'image/png' });
  t.deepEqual(platform.uploaded[0]!.bytes, png);

  const unsupported = await upload('image/gif', png);
  t.is(unsupported.status, 400);
  t.like(unsupported.body.error, { code: 131053, error_data: { details: 'Unsupported file type image/gif' } });
  t.like((await upload('image/png', Buffer.alloc(5 * 1024 * 1024 + 1))).body.error, { code: 131053 });
  t.like((await upload('image/png', png, { product: 'messenger' })).body.error, { code: 100 });
  t.like((await upload('image/png', png, { token: 'EAAwrong' })).body.error, { code: 190 });

  const to = '4915187654321';
  t.is((await send({ to, type: 'image', image: { id: uploaded.body.id, caption: 'Your parcel' } })).status, 200);
  t.like((await send({ to, type: 'image', image: { id: '1234567890123456' } })).body.error, { code: 100 });
  platform.closeWindow(to);
  t.like((await send({ to, type: 'image', image: { id: uploaded.body.id } })).body.error, { code: 131047 });
});

test('an AI answer with 4 to 10 choices goes out as a list message the platform accepts; 11 rows it refuses', async (t) => {
  const { send } = await startPlatform(t);
  const choices = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `topic_${i + 1}`, title: `Topic ${i + 1}` }));
  for (const n of [4, 10]) {
    const [payload] = choiceMessages('4915100000000', 'Which topic?', choices(n)) as [any];
    t.is(payload.interactive.type, 'list', `${n} choices`);
    t.is(payload.interactive.action.sections[0].rows.length, n);
    t.is((await send(payload)).status, 200, `${n} choices`);
  }
  const [ten] = choiceMessages('4915100000000', 'Which topic?', choices(10)) as [any];
  ten.interactive.action.sections[0].rows.push({ id: 'topic_11', title: 'Topic 11' });
  const refused = await send(ten);
  t.is(refused.status, 400);
  t.is(refused.body.error.code, 131009);
});
