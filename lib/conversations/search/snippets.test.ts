import test from 'ava';
import type { SearchableMessage } from './documents.js';
import { matchedMessages, queryWords, snippetLimits } from './snippets.js';

const message = (id: string, text: string, author: SearchableMessage['author'] = 'visitor'): SearchableMessage => ({
  id,
  author,
  text,
  createdAt: `2026-01-01T00:00:0${id}.000Z`,
});

test('query words are lower-cased runs of letters and digits, each once', (t) => {
  t.deepEqual(queryWords('Refund, REFUND!  order #4521 — Café'), ['refund', 'order', '4521', 'café']);
  t.deepEqual(queryWords('?!  …'), []);
});

test('the messages holding the most words come first in choice, then are shown in conversation order', (t) => {
  const messages = [
    message('1', 'Hello there'),
    message('2', 'I want a refund'),
    message('3', 'Refunds take five days; your refund for order 4521 is on its way', 'ai'),
    message('4', 'refund refund refund', 'agent'),
    message('5', 'Another refund question'),
  ];
  const matched = matchedMessages(messages, 'refund 4521');
  // 3 has both words; then the earliest ones with one word: 2 and 4.
  t.deepEqual(
    matched.map((match) => match.messageId),
    ['2', '3', '4'],
  );
  t.is(matched.length, snippetLimits.messages);
  const ai = matched[1]!;
  t.is(ai.author, 'ai');
  t.deepEqual(
    ai.highlights.map(({ start, end }) => ai.snippet.slice(start, end)),
    ['refund', '4521'],
  );
});

test('a long message is cut around its first match, with ellipses, and the highlights still point at the words', (t) => {
  const long = `${'Lorem ipsum dolor sit amet, '.repeat(20)}the parcel never arrived and I need a refund now. ${'Consectetur adipiscing elit. '.repeat(20)}`;
  const [match] = matchedMessages([message('1', long)], 'REFUND parcel');
  t.truthy(match);
  t.true(match!.snippet.startsWith('…'));
  t.true(match!.snippet.endsWith('…'));
  t.true(match!.snippet.length <= snippetLimits.chars + 2);
  t.deepEqual(
    match!.highlights.map(({ start, end }) => match!.snippet.slice(start, end)),
    ['parcel', 'refund'],
  );
});

test('whole words only, line breaks flattened, no match no message', (t) => {
  const matched = matchedMessages([message('1', 'refunded\n\nnot it'), message('2', 'a\nrefund\nplease')], 'refund');
  t.deepEqual(
    matched.map((match) => [match.messageId, match.snippet]),
    [['2', 'a refund please']],
  );
  t.deepEqual(matchedMessages([message('1', 'nothing here')], 'refund'), []);
});
