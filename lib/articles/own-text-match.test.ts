import test from 'ava';
import { matchOwnText, queryWords, wordsOf } from './own-text-match.js';

test('words are runs of letters and digits, lower-cased, as the keyword index cuts them', (t) => {
  t.deepEqual(wordsOf("Don't RESET the Wi-Fi 2FA code: café!"), ['don', 't', 'reset', 'the', 'wi', 'fi', '2fa', 'code', 'café']);
  t.deepEqual(wordsOf(' --- '), []);
});

test('a query keeps its distinct words, without the stopwords the keyword index ignores', (t) => {
  t.deepEqual(queryWords('How to reset THE password, reset it'), ['how', 'reset', 'password']);
  t.deepEqual(queryWords('the and of'), [], 'a query of stopwords only matches nothing');
});

test('a match counts the query words the text holds and their occurrences, the title twice', (t) => {
  const words = queryWords('leather boots');
  t.deepEqual(matchOwnText(words, { title: 'Waxing leather boots', content: 'Rub the wax into the leather.' }), {
    words: 2,
    weight: 2 + 2 + 1,
  });
  t.deepEqual(matchOwnText(words, { title: 'Down jackets', content: 'Also for boots' }), { words: 1, weight: 1 });
  t.is(matchOwnText(words, { title: 'Tents', content: 'Pitch on flat ground.' }), undefined);
  t.is(matchOwnText([], { title: 'Leather', content: 'boots' }), undefined);
});

test('the text is matched as the knowledge base holds it: markup removed, entities decoded', (t) => {
  const content = '<p class="boots">Use a <a href="https://wax.example">soft&nbsp;cloth</a> &amp; polish.</p>';
  t.is(matchOwnText(queryWords('boots'), { title: 'Care', content }), undefined, 'an attribute is no word of the text');
  t.is(matchOwnText(queryWords('href'), { title: 'Care', content }), undefined);
  t.deepEqual(matchOwnText(queryWords('cloth polish'), { title: 'Care', content }), { words: 2, weight: 2 });
});
