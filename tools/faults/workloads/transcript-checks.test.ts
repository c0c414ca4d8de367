import test from 'ava';
import { checkConversation, checkDeliveries } from './transcript-checks.js';

const question = (id: string, text: string) => ({ id, author: 'visitor', text });
const answer = (id: string, replyTo: string) => ({ id, author: 'ai', text: `answer to ${replyTo}`, replyTo });

test('a transcript with each question once and answered once passes', (t) => {
  const messages = [question('q1', 'one'), answer('a1', 'q1'), question('q2', 'two'), answer('a2', 'q2')];
  t.deepEqual(checkConversation('c', [{ messageId: 'q1', text: 'one' }, { text: 'two' }], messages), []);
});

test('a question missing, kept twice, unanswered or answered twice is found', (t) => {
  const messages = [
    question('q1', 'one'),
    question('q1', 'one'),
    answer('a1', 'q1'),
    answer('a1b', 'q1'),
    question('q2', 'two'),
    question('q9', 'never sent'),
  ];
  const found = checkConversation(
    'c',
    [{ messageId: 'q1', text: 'one' }, { messageId: 'q2', text: 'two' }, { text: 'three' }],
    messages,
  );
  t.deepEqual(
    found.map(({ kind, what }) => `${kind}: ${what}`),
    [
      'duplicated: c: message q1 is in the transcript 2 times',
      'duplicated: c: "one" is in the transcript 2 times',
      'duplicated: c: "one" was answered 2 times',
      'lost: c: "two" was never answered',
      'lost: c: "three" is not in the transcript',
      'unexpected: c: "never sent" was never sent',
    ],
  );
});

test('deliveries: each outgoing text received exactly as often as it was sent', (t) => {
  t.deepEqual(checkDeliveries('c1', ['hi', 'bye', 'bye'], ['bye', 'hi', 'bye']), []);
  t.deepEqual(
    checkDeliveries('c1', ['hi', 'bye'], ['hi', 'hi', 'other']).map(({ kind }) => kind),
    ['duplicated', 'lost', 'unexpected'],
  );
});
