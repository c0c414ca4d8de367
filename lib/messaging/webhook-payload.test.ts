import test from 'ava';
import { inboundText, readSample, statusUpdate } from '#testing/fake-messaging-platform.js';
import { laterStatus, MalformedDeliveryError, readWebhookDelivery, type DeliveryStatus } from './webhook-payload.js';

const phoneNumberId = '109283746501928';
const customer = { phoneNumberId, from: '15550107788', customerName: 'Dana Whitfield' };

/** The single event a sample delivery reads as, with no problems. */
function onlyEvent(sampleName: string) {
  const { events, problems } = readWebhookDelivery(readSample(sampleName));
  if (events.length !== 1 || problems.length > 0) throw new Error(`${sampleName}: ${JSON.stringify({ events, problems })}`);
  return events[0];
}

test('a text message reads as its body, with the sender, the name and the time', (t) => {
  t.deepEqual(onlyEvent('inbound-text'), {
    kind: 'message',
    ...customer,
    messageId: 'wamid.HBgLMTU1NTAxMDc3ODgVAgASGBQxNTdBQUZBNkMyNjBENTY4QzkyQQA=',
    timestamp: '2026-03-02T09:15:00.000Z',
    type: 'text',
    text: 'Hi! Do you ship to Canada, and how long does it take?',
  });
});

test('a tapped reply button reads as its title, its id as the choice, and the message it answers', (t) => {
  t.like(onlyEvent('inbound-button-reply'), {
    kind: 'message',
    type: 'interactive',
    text: 'Talk to a person',
    choiceId: 'handoff_human',
    replyTo: 'wamid.HBgLMTU1NTAxMDc3ODgVAgARGBRGMkIwQkM2RDdDM0JCRTVBOEJGRQA=',
  });
});

test('a list choice and a template button read as their titles, with their ids as the choice', (t) => {
  t.like(onlyEvent('inbound-list-reply'), { type: 'interactive', text: 'Returns & refunds', choiceId: 'topic_returns' });
  t.like(onlyEvent('inbound-template-button'), { type: 'button', text: 'Track my order', choiceId: 'order_4711_track' });
});

test('media, stickers, locations and unsupported messages read as placeholders', (t) => {
  const texts = Object.fromEntries(
    ['inbound-image', 'inbound-document', 'inbound-audio', 'inbound-sticker', 'inbound-location', 'inbound-unsupported'].map(
      (name) => [name, (onlyEvent(name) as { text: string }).text],
    ),
  );
  t.deepEqual(texts, {
    'inbound-image': '[Image] The box arrived like this',
    'inbound-document': '[Document: invoice-4711.pdf] Invoice for order 4711',
    'inbound-audio': '[Voice message]',
    'inbound-sticker': '[Sticker]',
    'inbound-location': '[Location] 45.501689, -73.567256 – Pickup point Rue Example, 100 Rue Example, Montreal, QC',
    'inbound-unsupported': '[Unsupported message]',
  });
  t.like(onlyEvent('inbound-unsupported'), { kind: 'message', type: 'unsupported', ...customer });
});

test('a reaction is no message to answer, only a reaction (it still reopens the window)', (t) => {
  t.deepEqual(onlyEvent('inbound-reaction'), {
    kind: 'reaction',
    phoneNumberId,
    messageId: 'wamid.HBgLMTU1NTAxMDc3ODgVAgASGBQ3NjhFN0VDMEE1ODg0MTZFMjMwNwA=',
    from: '15550107788',
    timestamp: '2026-03-02T09:23:30.000Z',
    reactedTo: 'wamid.HBgLMTU1NTAxMDc3ODgVAgARGBRFMDdBOUVEODVFMThDMkNBMzA0NQA=',
    emoji: '👍',
  });
});

test('statuses read with the id of our message; a failed one with its error', (t) => {
  const ours = 'wamid.HBgLMTU1NTAxMDc3ODgVAgARGBRFMDdBOUVEODVFMThDMkNBMzA0NQA=';
  t.deepEqual(onlyEvent('status-delivered'), {
    kind: 'status',
    phoneNumberId,
    messageId: ours,
    status: 'delivered',
    timestamp: '2026-03-02T09:15:23.000Z',
    recipientId: '15550107788',
  });
  t.like(onlyEvent('status-read'), { kind: 'status', messageId: ours, status: 'read' });
  t.like(onlyEvent('status-failed'), {
    kind: 'status',
    status: 'failed',
    error: {
      code: 131047,
      title: 'Re-engagement message',
      message: 'Re-engagement message',
      details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    },
  });
});

test('out-of-band errors read as error events', (t) => {
  t.deepEqual(onlyEvent('webhook-errors'), {
    kind: 'error',
    phoneNumberId,
    code: 130429,
    title: 'Rate limit hit',
    message: 'Rate limit hit',
    details: 'Message failed to send because there were too many messages sent from this phone number in a short period of time',
  });
});

test('every entry and every change is read; fields other than messages are ignored', (t) => {
  const first = inboundText({ text: 'first', id: 'wamid.A' });
  const second = statusUpdate({ phoneNumberId: '200', messageId: 'wamid.B', status: 'sent', recipientId: '15550107788' });
  first.entry[0].changes.push(
    { field: 'message_template_status_update', value: { event: 'APPROVED' } },
    second.entry[0].changes[0],
  );
  first.entry.push(inboundText({ phoneNumberId: '300', text: 'third', id: 'wamid.C' }).entry[0]);

  const { events, problems } = readWebhookDelivery(first);
  t.deepEqual(
    events.map((event) => [event.kind, event.phoneNumberId, 'messageId' in event ? event.messageId : undefined]),
    [
      ['message', phoneNumberId, 'wamid.A'],
      ['status', '200', 'wamid.B'],
      ['message', '300', 'wamid.C'],
    ],
  );
  t.deepEqual(problems, []);
});

test('a customer without wa_id is answered by their business-scoped user id', (t) => {
  const delivery = inboundText({ text: 'hello' });
  const value = delivery.entry[0].changes[0].value;
  delete value.messages[0].from;
  value.messages[0].from_user_id = 'US.13491208655302741918';
  value.contacts = [{ profile: { name: 'Ana' }, user_id: 'US.13491208655302741918' }];

  const [event] = readWebhookDelivery(delivery).events;
  t.like(event, { kind: 'message', from: 'US.13491208655302741918', userId: 'US.13491208655302741918', customerName: 'Ana' });

  delete value.messages[0].from_user_id;
  const { events, problems } = readWebhookDelivery(delivery);
  t.deepEqual(events, []);
  t.is(problems.length, 1);
  t.regex(problems[0]!, /no sender/);
});

test('garbage inside a valid envelope becomes problems, and the good messages beside it still count', (t) => {
  const delivery = inboundText({ text: 'still here', id: 'wamid.good' });
  const value = delivery.entry[0].changes[0].value;
  value.messages.push(
    'not a message',
    { type: 'text', text: { body: 'no id' } },
    { id: 'wamid.notime', from: '1', type: 'text', text: { body: 'x' } },
    { id: 'wamid.nobody', from: '1', timestamp: '1772442900', type: 'text', text: {} },
    { id: 'wamid.order', from: '1', timestamp: '1772442900', type: 'order', order: {} },
    { id: 'wamid.new', from: '1', timestamp: '1772442900', type: 'hologram' },
  );
  value.statuses = [{ id: 'wamid.x', status: 'played', timestamp: '1772442900' }, null];
  delivery.entry.push({ id: 'waba', changes: [{ field: 'messages', value: { metadata: {} } }] }, 42);

  const { events, problems } = readWebhookDelivery(delivery);
  t.deepEqual(
    events.map((event) => (event.kind === 'message' ? [event.messageId, event.text] : event.kind)),
    [
      ['wamid.good', 'still here'],
      ['wamid.new', '[Unsupported message]'],
    ],
  );
  t.is(problems.length, 8, problems.join('\n'));
  t.false(problems.join(' ').includes('still here'), 'problems never quote what the customer wrote');
});

test('a time beyond what a Date holds is a problem of its event, not an error of the delivery', (t) => {
  const delivery = inboundText({ text: 'still here', id: 'wamid.good' });
  const value = delivery.entry[0].changes[0].value;
  value.messages.push({ id: 'wamid.far', from: '1', timestamp: '99999999999999', type: 'text', text: { body: 'x' } });
  value.statuses = [{ id: 'wamid.late', status: 'read', timestamp: 8.64e12 + 1 }];

  const { events, problems } = readWebhookDelivery(delivery);
  t.deepEqual(
    events.map((event) => event.kind === 'message' && event.messageId),
    ['wamid.good'],
  );
  t.is(problems.length, 2, problems.join('\n'));
});

test('a body that is not a delivery at all is malformed', (t) => {
  for (const body of [null, 'text', [], {}, { object: 'page', entry: [] }, { object: 'whatsapp_business_account', entry: {} }]) {
    t.throws(() => readWebhookDelivery(body), { instanceOf: MalformedDeliveryError });
  }
  t.deepEqual(readWebhookDelivery({ object: 'whatsapp_business_account', entry: [] }), { events: [], problems: [] });
});

test('statuses only move forward, whatever order they arrive in', (t) => {
  const all: DeliveryStatus[] = ['sent', 'delivered', 'read', 'failed'];
  const final = (statuses: DeliveryStatus[]) => statuses.reduce<DeliveryStatus | undefined>(laterStatus, undefined);
  t.is(final(['read', 'delivered', 'sent']), 'read');
  t.is(final(['sent', 'failed', 'delivered']), 'failed', 'a failure replaces sent and delivered');
  t.is(final(['read', 'failed']), 'read', 'a message the customer opened did reach them');
  for (const a of all)
    for (const b of all) t.is(laterStatus(laterStatus(undefined, a), b), laterStatus(laterStatus(undefined, b), a));
});
