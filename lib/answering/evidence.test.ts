import test from 'ava';
import type { RetrievedSource } from '#knowledge/search.js';
import { answeringSources, type EvidenceRule } from './evidence.js';

const source = (n: number, similarity: number, title: string, text: string): RetrievedSource => ({
  n,
  sourceKey: `cms:${n}`,
  externalId: String(n),
  integrationId: 'cms',
  sourceType: 'ARTICLE',
  title,
  url: null,
  text,
  score: 1 / n,
  similarity,
});

const rule: EvidenceRule = { minSimilarity: 0.3, minCoverage: 1 / 3, confidentSimilarity: 0.6, minSentenceSimilarity: 0 };

/** Sentences that contain "hold" point the question's way, every other text at right angles to it. */
const sentences = {
  async embed(texts: string[]) {
    return texts.map((text, i) => (i === 0 || /\bhold\b/.test(text) ? [1, 0] : [0, 1]));
  },
};

test('a source close in meaning that contains the question’s words answers it', async (t) => {
  const sources = [source(1, 0.45, 'Returns', 'You can return any order within 30 days.')];
  t.deepEqual(
    (await answeringSources('how do I return my order?', sources, rule, sentences)).map((s) => s.externalId),
    ['1'],
  );
});

test('a paraphrase sharing no word answers when it is close enough in meaning', async (t) => {
  const sources = [source(1, 0.65, 'Putting a package on hold', 'Mark it held and the upgrade tool leaves it at its version.')];
  t.is((await answeringSources('how can I keep software from being upgraded?', sources, rule, sentences)).length, 1);
  t.is(
    (
      await answeringSources(
        'how can I keep software from being upgraded?',
        [{ ...sources[0]!, similarity: 0.5 }],
        rule,
        sentences,
      )
    ).length,
    0,
  );
});

test('a source below the similarity floor never answers, whatever words it shares', async (t) => {
  const sources = [source(1, 0.29, 'Paris store', 'Our store in Paris, the capital of France, opens at nine.')];
  t.deepEqual(await answeringSources('what is the capital of France?', sources, rule, sentences), []);
});

test('the sources that remain are renumbered for citation, in their order', async (t) => {
  const sources = [
    source(1, 0.2, 'Shipping', 'We ship worldwide.'),
    source(2, 0.5, 'Return policy', 'Returns are accepted within 30 days of delivery.'),
    source(3, 0.7, 'Refunds', 'Money goes back to the card you paid with.'),
  ];
  t.deepEqual(
    (await answeringSources('what is your return policy?', sources, rule, sentences)).map((s) => [s.n, s.externalId]),
    [
      [1, '2'],
      [2, '3'],
    ],
  );
});

test('a source close as a whole with no sentence close to the question does not answer', async (t) => {
  const strict = { ...rule, minSentenceSimilarity: 0.5 };
  const sources = [
    source(1, 0.7, 'Package upgrades', 'Upgrades install every package that has a newer version. They run nightly.'),
    source(2, 0.65, 'Holding packages', 'Put a package on hold and upgrades leave it alone.'),
  ];
  t.deepEqual(
    (await answeringSources('how can I keep a package from being upgraded?', sources, strict, sentences)).map((s) => [
      s.n,
      s.externalId,
    ]),
    [[1, '2']],
  );
});
