import test from 'ava';
import { readSample } from '#testing/fake-messaging-platform.js';
import {
  buttonMessage,
  choiceMessages,
  limits,
  listMessage,
  splitText,
  textMessage,
  textMessages,
  validateOutboundPayload,
  type Choice,
  type OutboundPayload,
} from './outbound-message.js';

const to = '15550107788';
const codePoints = (text: string) => [...text].length;
const choices = (count: number, title = (i: number) => `Choice ${i}`): Choice[] =>
  Array.from({ length: count }, (_, i) => ({ id: `choice_${i + 1}`, title: title(i + 1) }));

/** Every payload a test builds must be one the platform accepts. */
function valid(t: { deepEqual: (a: unknown, b: unknown, message?: string) => void }, payloads: OutboundPayload[]) {
  for (const payload of payloads) t.deepEqual(validateOutboundPayload(payload), [], JSON.stringify(payload).slice(0, 200));
  return payloads;
}

test('the sample requests are valid, and the validator finds what the platform would refuse', (t) => {
  t.deepEqual(validateOutboundPayload(readSample('send-text-request')), []);
  const buttons = readSample('send-buttons-request');
  t.deepEqual(validateOutboundPayload(buttons), []);

  buttons.interactive.action.buttons.push({ type: 'reply', reply: { id: 'fourth', title: 'Fourth' } });
  t.deepEqual(validateOutboundPayload(buttons), ['Invalid buttons count. Min allowed buttons: 1, Max allowed buttons: 3']);
  buttons.interactive.action.buttons = [
    { type: 'reply', reply: { id: ' spaced', title: 'A title of twenty-one' } },
    { type: 'reply', reply: { id: 'same', title: 'Same' } },
    { type: 'reply', reply: { id: 'same', title: 'Same' } },
  ];
  t.deepEqual(validateOutboundPayload(buttons), [
    'button 1 id has leading or trailing spaces',
    'button 1 title is longer than 20 characters',
    'button ids must be unique',
    'button titles must be unique',
  ]);
  t.deepEqual(validateOutboundPayload({ messaging_product: 'sms', to, type: 'text', text: { body: '' } }), [
    'messaging_product must be "whatsapp"',
    'text.body is required',
  ]);
  t.deepEqual(validateOutboundPayload({ messaging_product: 'whatsapp', to, type: 'text', text: { body: 'x'.repeat(4097) } }), [
    'text.body is longer than 4096 characters',
  ]);
  t.deepEqual(validateOutboundPayload({ messaging_product: 'whatsapp', to, type: 'template' }), [
    'type "template" is not a type this service sends',
  ]);
  t.deepEqual(validateOutboundPayload([]), ['the payload is not a JSON object']);
});

test('text: a link asks for a preview, the reply-to goes on the first part only', (t) => {
  t.deepEqual(textMessage(to, 'See https://help.example.com/shipping', { replyTo: 'wamid.in' }), {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    context: { message_id: 'wamid.in' },
    type: 'text',
    text: { body: 'See https://help.example.com/shipping', preview_url: true },
  });
  t.false(textMessage(to, 'No link here, just example.com').text.preview_url);
  t.false(textMessage(to, 'https://example.com', { previewUrl: false }).text.preview_url);

  const parts = valid(t, textMessages(to, `${'word '.repeat(600)}\n\n${'more '.repeat(600)}`, { replyTo: 'wamid.in' }));
  t.is(parts.length, 2);
  t.deepEqual(
    parts.map((part) => part.context),
    [{ message_id: 'wamid.in' }, undefined],
  );
  t.deepEqual(textMessages(to, '  \n '), []);
  t.is(textMessage(to, 'x'.repeat(5000)).text.body.length, limits.textBody, 'clipped, never refused');
});

test('splitText cuts at a paragraph, else a line, a sentence, a word, and never inside a character', (t) => {
  const paragraph = `${'a'.repeat(60)}\n\n${'b'.repeat(30)}`;
  t.deepEqual(splitText(paragraph, 80), ['a'.repeat(60), 'b'.repeat(30)]);
  t.deepEqual(splitText(`${'a'.repeat(60)}\n${'b'.repeat(30)}`, 80), ['a'.repeat(60), 'b'.repeat(30)]);
  t.deepEqual(splitText('One sentence here. Another one. And a third one that is long!', 40), [
    'One sentence here. Another one.',
    'And a third one that is long!',
  ]);
  const earlyParagraph = `${'a'.repeat(10)}\n\n${'b'.repeat(50)}\n${'c'.repeat(30)}`;
  t.deepEqual(
    splitText(earlyParagraph, 80),
    [`${'a'.repeat(10)}\n\n${'b'.repeat(50)}`, 'c'.repeat(30)],
    'no part less than half full',
  );
  t.deepEqual(splitText('alpha beta gamma delta epsilon', 12), ['alpha beta', 'gamma delta', 'epsilon']);
  t.deepEqual(splitText('short', 4096), ['short']);

  const emoji = '😀'.repeat(10);
  const parts = splitText(emoji, 3);
  t.deepEqual(parts, ['😀😀😀', '😀😀😀', '😀😀😀', '😀']);
  t.true(parts.every((part) => codePoints(part) <= 3 && !/[\ud800-\udbff]$/.test(part)));

  const family = '👨‍👩‍👧'.repeat(3); // 5 code points each
  t.deepEqual(splitText(family, 12), ['👨‍👩‍👧👨‍👩‍👧', '👨‍👩‍👧']);

  const long = Array.from({ length: 3000 }, (_, i) => `Word${i}${i % 17 === 0 ? '.' : ''}${i % 101 === 0 ? '\n\n' : ' '}`).join(
    '',
  );
  const pieces = splitText(long, 4096);
  t.true(pieces.every((piece) => codePoints(piece) <= 4096));
  t.is(pieces.join(' ').replace(/\s+/g, ' '), long.trim().replace(/\s+/g, ' '), 'nothing lost, nothing added');
});

test('no choices: the body alone, as text', (t) => {
  t.deepEqual(choiceMessages(to, 'Hello', []), textMessages(to, 'Hello'));
});

test('up to three choices are reply buttons; long titles shortened to 20 code points and kept unique', (t) => {
  const [payload] = valid(
    t,
    choiceMessages(to, 'Was this helpful?', [
      { id: ' handoff_human ', title: 'Talk to a person from the support team' },
      { id: 'handoff_other', title: 'Talk to a person from the sales team' },
      { id: 'x'.repeat(300), title: '  Yes,\nthanks  ' },
    ]),
  ) as [any];
  t.is(payload.interactive.type, 'button');
  t.deepEqual(
    payload.interactive.action.buttons.map(({ reply }: any) => reply.title),
    ['Talk to a person fr…', 'Talk to a person… 2', 'Yes, thanks'],
  );
  t.deepEqual(
    payload.interactive.action.buttons.map(({ reply }: any) => codePoints(reply.id)),
    ['handoff_human'.length, 'handoff_other'.length, 256],
  );
  t.is(payload.interactive.body.text, 'Was this helpful?');
});

test('titles are counted in code points: emoji fit as they are, and are never cut in half', (t) => {
  const [payload] = valid(
    t,
    choiceMessages(to, 'Pick one', [
      { id: 'a', title: '👍 Yes, thanks a lot' }, // 19 code points, 20 UTF-16 units
      { id: 'b', title: '👨‍👩‍👧 Family plan options' },
      { id: 'c', title: '😀'.repeat(25) },
    ]),
  ) as [any];
  const titles = payload.interactive.action.buttons.map(({ reply }: any) => reply.title);
  t.is(titles[0], '👍 Yes, thanks a lot');
  t.is(titles[1], '👨‍👩‍👧 Family plan o…');
  t.is(titles[2], `${'😀'.repeat(19)}…`);
  t.true(titles.every((title: string) => codePoints(title) <= 20));
});

test('four to ten choices are a list; more are numbered text', (t) => {
  const [list] = valid(t, choiceMessages(to, 'Which topic?', choices(5), { listButton: 'See the topics' })) as [any];
  t.is(list.interactive.type, 'list');
  t.is(list.interactive.action.button, 'See the topics');
  t.is(list.interactive.action.sections[0].rows.length, 5);
  t.is(valid(t, choiceMessages(to, 'Which topic?', choices(10)))[0]!.type, 'interactive');

  const [text, ...rest] = valid(t, choiceMessages(to, 'Which topic?', choices(12)));
  t.deepEqual(rest, []);
  t.is(text!.type, 'text');
  t.regex((text as any).text.body, /^Which topic\?\n\n1\. Choice 1\n2\. Choice 2\n[\s\S]*\n12\. Choice 12$/);
});

test('list rows: titles at most 24, descriptions at most 72, the label at most 20', (t) => {
  const long: Choice[] = choices(4, (i) => `A rather long topic title number ${i}`).map((choice) => ({
    ...choice,
    description: 'd'.repeat(100),
  }));
  const payload = valid(t, [listMessage(to, 'Which topic?', long, { listButton: 'Please choose one of these' })])[0] as any;
  const rows = payload.interactive.action.sections[0].rows;
  t.true(rows.every((row: any) => codePoints(row.title) <= 24 && codePoints(row.description) === 72));
  t.is(new Set(rows.map((row: any) => row.title)).size, 4);
  t.is(payload.interactive.action.button, 'Please choose one o…');
});

test('a body too long for buttons goes first as text; its last part carries the buttons', (t) => {
  const body = `${'Long explanation. '.repeat(100).trim()}\n\nWas this helpful?`;
  const payloads = valid(t, choiceMessages(to, body, choices(2), { replyTo: 'wamid.in', footer: 'AI assistant' }));
  t.deepEqual(
    payloads.map((payload) => payload.type),
    ['text', 'interactive'],
  );
  const [lead, buttons] = payloads as [any, any];
  t.is(lead.text.body, 'Long explanation. '.repeat(100).trim());
  t.deepEqual(lead.context, { message_id: 'wamid.in' });
  t.is(buttons.interactive.body.text, 'Was this helpful?');
  t.is(buttons.context, undefined);
  t.deepEqual(buttons.interactive.footer, { text: 'AI assistant' });

  const huge = valid(t, choiceMessages(to, 'x '.repeat(3000), choices(3)));
  t.true(huge.length >= 2);
  t.is(huge.at(-1)!.type, 'interactive');
});

test('single builders clip what they are given instead of producing a refused payload', (t) => {
  const payload = valid(t, [buttonMessage(to, 'b'.repeat(2000), choices(5), { header: 'h'.repeat(80) })])[0] as any;
  t.is(payload.interactive.action.buttons.length, 3);
  t.is(codePoints(payload.interactive.body.text), 1024);
  t.is(codePoints(payload.interactive.header.text), 60);
  valid(t, [
    buttonMessage(to, '   ', [
      { id: '', title: '' },
      { id: '', title: '' },
    ]),
  ]);
  valid(t, [listMessage(to, 'Pick', choices(14))]);
});
