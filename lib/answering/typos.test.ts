import test from 'ava';
import type { TokenWindow } from '#knowledge/embeddings/embedder.js';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';
import { mendTypos } from './typos.js';

const sources = [
  {
    title: 'Meadow +5 sleeping bag',
    text: 'Temperature ratings: comfort +9 °C, limit +5 °C. Rent one for $15, steep discounts for groups.',
  },
  { title: 'Reset your password', text: 'Choose Forgot password on the sign-in page. Blister plasters are sold in store.' },
];

/** A stand-in for the model's tokenizer: the words it knows whole take one token, others one per two letters. */
function tokenWindowKnowing(...words: string[]): TokenWindow {
  const known = new Set(words);
  return {
    maxTokens: 256,
    count: (text) =>
      2 + (text.match(/\S+/g) ?? []).reduce((sum, word) => sum + (known.has(word) ? 1 : Math.ceil(word.length / 2)), 0),
  };
}

test('a misspelt word is read as the word of the sources one typo away', (t) => {
  const window = tokenWindowKnowing();
  t.is(mendTypos('whats the limit temp on the medow bag', sources, window), 'whats the limit temp on the meadow bag');
  t.is(mendTypos('forgott my pasword', sources, window), 'forgot my password');
});

test('a word the model knows whole is never swapped for a neighbour', (t) => {
  t.is(mendTypos('where can I sleep?', sources, tokenWindowKnowing('sleep')), 'where can I sleep?');
  // Unknown to the model, the same word would be mended.
  t.is(mendTypos('where can I sleep?', sources, tokenWindowKnowing()), 'where can I steep?');
});

test('words the sources contain, short words, numbers and other forms of a word stay as typed', (t) => {
  const window = tokenWindowKnowing();
  t.is(mendTypos('Meadow limit?', sources, window), 'Meadow limit?');
  t.is(mendTypos('rnet one', sources, window), 'rnet one');
  t.is(mendTypos('12345 or 12346', [{ title: '', text: '12345' }], window), '12345 or 12346');
  t.is(mendTypos('my blisters hurt', sources, window), 'my blisters hurt');
});

test('without a token window nothing is mended', (t) => {
  t.is(mendTypos('forgott my pasword', sources, undefined), 'forgott my pasword');
});

test("with the real model's tokenizer: typos are mended, real words are not", async (t) => {
  const { tokenWindow } = await loadMiniLmEmbedder(defaultModelDir());
  t.is(
    mendTypos('warrenty claim adress?', [{ title: 'Warranty', text: 'Email your claim to this address.' }], tokenWindow),
    'warranty claim address?',
  );
  t.is(
    mendTypos('it went on sale a week later', [{ title: 'Layers', text: 'Wear a warm layer.' }], tokenWindow),
    'it went on sale a week later',
  );
});
