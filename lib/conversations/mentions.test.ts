import test from 'ava';
import { resolveMentions, UnknownMentionError, type Colleague } from './mentions.js';
import { withNotes, type PrivateNote } from './notes.js';

const ada: Colleague = { id: 'u-ada', name: 'Ada', email: 'ada@shop.example', active: true };
const adaL: Colleague = { id: 'u-adal', name: 'Ada Lovelace', email: 'lovelace@shop.example', active: true };
const bob: Colleague = { id: 'u-bob', name: 'Bob', email: 'bob@shop.example', active: true };
const gone: Colleague = { id: 'u-gone', name: 'Gone', email: 'gone@shop.example', active: false };
const team = [ada, adaL, bob, gone];
const ids = (text: string, explicit: string[] = []) => resolveMentions(text, explicit, team).map((person) => person.userId);

test('@ and a full name or e-mail address mentions a colleague, case aside, each once', (t) => {
  t.deepEqual(ids('@bob can you check the refund?'), ['u-bob']);
  t.deepEqual(ids('Ask @BOB@shop.example, or @bob.'), ['u-bob'], 'by e-mail, then by name: one person');
  t.deepEqual(ids('Thanks @Bob!'), ['u-bob'], 'punctuation after the name ends it');
  t.deepEqual(resolveMentions('@bob', [], team), [{ userId: 'u-bob', name: 'Bob' }]);
});

test('the longest name wins where names overlap', (t) => {
  t.deepEqual(ids('@Ada Lovelace please look'), ['u-adal']);
  t.deepEqual(ids('@Ada and @Ada Lovelace').sort(), ['u-ada', 'u-adal']);
});

test('what only looks like a mention is text', (t) => {
  t.deepEqual(ids('mail me at someone@bob'), [], 'an address ending in a name');
  t.deepEqual(ids('@Bobby is not Bob'), [], 'a longer word');
  t.deepEqual(ids('@bob.smith is not Bob either'), [], 'a dotted handle');
  t.deepEqual(ids('@nobody here'), []);
  t.deepEqual(ids('@Gone left the team'), [], 'an inactive user is not mentioned by name');
});

test('explicit mentions must be active users of the tenant: the first unknown is named', (t) => {
  t.deepEqual(ids('no handle', ['u-bob', 'u-ada']), ['u-bob', 'u-ada']);
  t.deepEqual(ids('@Bob too', ['u-bob']), ['u-bob'], 'once');
  const unknown = t.throws(() => ids('x', ['u-bob', 'u-stranger']), { instanceOf: UnknownMentionError });
  t.like(unknown, { userId: 'u-stranger', index: 1 });
  t.throws(() => ids('x', ['u-gone']), { instanceOf: UnknownMentionError }, 'a deactivated user');
});

const note = (id: string, createdAt: string): PrivateNote => ({
  id,
  conversationId: 'c',
  text: id,
  createdAt,
  author: { userId: 'u-ada', name: 'Ada' },
  mentions: [],
});
const message = (id: string, createdAt: string) => ({ id, createdAt });

test('notes join the transcript in time order, marked private with their author; the transcript keeps its order', (t) => {
  const messages = [message('m1', '2026-01-01T10:00:00.000Z'), message('m2', '2026-01-01T10:05:00.000Z')];
  const merged = withNotes(messages, [note('n-late', '2026-01-01T10:09:00.000Z'), note('n-mid', '2026-01-01T10:01:00.000Z')]);
  t.deepEqual(
    merged.map((entry) => entry.id),
    ['m1', 'n-mid', 'm2', 'n-late'],
  );
  t.like(merged[1], { author: 'agent', private: true, agent: { name: 'Ada' }, aiGenerated: false, text: 'n-mid' });
  t.is(withNotes(messages, []), messages, 'no notes: the transcript as it is');
  t.deepEqual(
    withNotes([], [note('n', '2026-01-01T10:00:00.000Z')]).map((entry) => entry.id),
    ['n'],
  );
});
