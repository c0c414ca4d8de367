import test from 'ava';
import { searchCannedReplies } from './canned-reply-search.js';

const replies = [
  { shortcut: 'hours', title: 'Opening hours', text: 'We answer from 9:00 to 17:00, Monday to Friday.' },
  { shortcut: 'refund', title: 'Refund of your money', text: 'Your refund is on its way.' },
  { shortcut: 'refund-late', title: 'Late refund', text: 'Refunds take up to 10 days to show.' },
  { shortcut: 'shipping', title: 'Delivery times', text: 'Parcels arrive within 3 days; a refund is possible.' },
  { shortcut: 'grüße', title: 'Grüße aus Köln', text: 'Viele Grüße' },
];
const shortcuts = (query: string | undefined) => searchCannedReplies(replies, query).map(({ shortcut }) => shortcut);

test('no query lists every reply in its order', (t) => {
  t.deepEqual(
    shortcuts(undefined),
    replies.map(({ shortcut }) => shortcut),
  );
  t.deepEqual(
    shortcuts('  '),
    replies.map(({ shortcut }) => shortcut),
  );
  t.deepEqual(
    shortcuts('/'),
    replies.map(({ shortcut }) => shortcut),
    'a bare slash, as first typed in the reply box',
  );
});

test('the exact shortcut first, then shortcuts that begin with the query, then titles, then texts', (t) => {
  t.deepEqual(shortcuts('refund'), ['refund', 'refund-late', 'shipping']);
  t.deepEqual(shortcuts('/ref'), ['refund', 'refund-late', 'shipping'], 'a leading slash is left out');
  t.deepEqual(shortcuts('REFUND-L'), ['refund-late'], 'case does not matter');
  t.deepEqual(shortcuts('delivery'), ['shipping'], 'by a word of the title');
  t.deepEqual(shortcuts('parcels'), ['shipping'], 'by a word of the text');
});

test('every word must begin a word of the reply', (t) => {
  t.deepEqual(shortcuts('ref mon'), ['refund']);
  t.deepEqual(shortcuts('late days'), ['refund-late']);
  t.deepEqual(shortcuts('refund tuesday'), []);
  t.deepEqual(shortcuts('und'), [], 'the middle of a word does not match');
  t.deepEqual(shortcuts('-'), [], 'punctuation alone matches no word');
  t.deepEqual(shortcuts('köln'), ['grüße'], 'any script');
});
