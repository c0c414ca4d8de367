import test from 'ava';
import type { RetrievedSource } from '#knowledge/search.js';
import { createQuestionAnswerer } from './answer-question.js';
import type { AnswerInput } from './types.js';

const meadow: RetrievedSource = {
  n: 1,
  sourceKey: 'cms:meadow',
  externalId: 'meadow',
  integrationId: 'cms',
  sourceType: 'PRODUCT',
  title: 'Meadow sleeping bag',
  url: null,
  text: 'Temperature ratings: comfort +9 °C, limit +5 °C.',
  score: 1,
  similarity: 0.5,
};

test('the evidence rule and the generator read the question with its typos mended; retrieval reads it as typed', async (t) => {
  const searched: string[] = [];
  const embedded: string[] = [];
  const generated: AnswerInput[] = [];
  const answer = createQuestionAnswerer({
    search: {
      async retrieve(_tenant, _kb, question) {
        searched.push(question);
        return [meadow];
      },
    },
    generator: {
      name: 'recording',
      async generate(input) {
        generated.push(input);
        return { outcome: 'answered', text: 'Limit +5 °C. [1]', citations: [] };
      },
    },
    retrieval: { maxSources: 3, maxPassagesPerSource: 1 },
    evidence: { minSimilarity: 0.2, minCoverage: 0.2, confidentSimilarity: 0.45, minSentenceSimilarity: 0.45 },
    sentences: {
      // Every word unknown to this "model" (two tokens each), so any word one typo from the source's is mended.
      tokenWindow: { maxTokens: 256, count: (text) => 2 + 2 * (text.match(/\S+/g) ?? []).length },
      async embed(texts) {
        embedded.push(texts[0]!);
        return texts.map(() => [1, 0]);
      },
    },
  });
  const reply = await answer(
    { tenantId: 't', knowledgeBaseId: 'kb', question: 'whats the limit temp on the medow bag', locale: 'en' },
    { token() {}, reset() {} },
  );
  t.is(reply.outcome, 'answered');
  t.deepEqual(searched, ['whats the limit temp on the medow bag']);
  t.deepEqual(embedded, ['whats the limit temp on the meadow bag']);
  t.is(generated[0]?.question, 'whats the limit temp on the meadow bag');
});
