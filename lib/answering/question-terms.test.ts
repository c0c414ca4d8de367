import test from 'ava';
import { oneTypoApart, termCoverage } from './question-terms.js';

test('one typo apart: a letter added, dropped, changed, or two neighbours swapped', (t) => {
  for (const [a, b] of [
    ['medow', 'meadow'],
    ['meadow', 'medow'],
    ['jakcet', 'jacket'],
    ['warrenty', 'warranty'],
    ['filter', 'fillter'],
  ]) {
    t.true(oneTypoApart(a!, b!), `${a} / ${b}`);
  }
  for (const [a, b] of [
    ['jacket', 'jacket'],
    ['jacket', 'pocket'],
    ['meadow', 'mead'],
    ['abcdef', 'badcef'],
    ['credit', 'crdeti'],
  ]) {
    t.false(oneTypoApart(a!, b!), `${a} / ${b}`);
  }
});

test('coverage counts the question terms the text has, long ones also one typo away', (t) => {
  const text = 'The Meadow sleeping bag has a limit temperature of 0 °C and a full-length zip.';
  t.is(termCoverage('what is the limit temperature of the meadow bag', text), 1);
  t.is(termCoverage('whats the limit temprature on the medow bag', text), 1);
  // Short words stay exact: "bog" is no "bag".
  t.is(termCoverage('meadow bog', text), 0.5);
  t.is(termCoverage('is it waterproof?', text), 0);
  t.is(termCoverage('what is it?', text), 0, 'a question of question words has no terms');
});
