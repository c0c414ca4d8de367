/**
 * `npm run bench:answer [-- --chunks 10000 --questions 100]`: on a stack of its own, a knowledge base
 * of the evaluation corpus plus filler items up to N chunks; then, one question at a time on the
 * idle stack:
 *  - search alone (GET /knowledge-bases/{kbId}/search): p50, p95;
 *  - through the public chat API with the default (extractive) composer: time to the first token
 *    and to the full answer (`done`), p50 and p95;
 *  - composing alone, in this process, from three sources of 3,000 characters: with their sentence
 *    vectors stored (as retrieval hands them over) and without (every sentence embedded): p50, p95.
 */
import { parseArgs } from 'node:util';
import { answerSentencesOf, createExtractiveComposer } from '#answering/extractive/composer.js';
import { decodeSentenceVectors, encodeSentenceVectors } from '#knowledge/sentence-vectors.js';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';
import { chunkText } from '#knowledge/text/chunk.js';
import { normalizeText } from '#knowledge/text/normalize.js';
import { chatClient } from '#testing/chat.js';
import { evalCorpus } from '#eval/corpus.js';
import { evalQuestions } from '#eval/questions.js';
import { benchItem } from './corpus.js';
import { createMeasuredTenant, ingestAll, percentile, round, startMeasuredStack } from './measured-stack.js';

const { values: args } = parseArgs({
  options: { chunks: { type: 'string', default: '10000' }, questions: { type: 'string', default: '100' } },
});
const targetChunks = Number(args.chunks);
const questionCount = Number(args.questions);

// The corpus, then filler items until the knowledge base holds the chunks asked for, counted as
// the worker chunks them (within the model's window).
const model = await loadMiniLmEmbedder(defaultModelDir());
const chunksOf = (item: { data: { title: string; content: string } }) =>
  chunkText(item.data.title, normalizeText(item.data.content), { tokenWindow: model.tokenWindow }).length;
const items: Array<{ integrationId: string; externalId: string; data: { title: string; content: string } }> = [...evalCorpus];
let chunkCount = evalCorpus.reduce((sum, item) => sum + chunksOf(item), 0);
for (let i = 0; chunkCount < targetChunks; i++) {
  const filler = benchItem(i, 'filler');
  chunkCount += chunksOf(filler);
  items.push(filler);
}

const stack = await startMeasuredStack('bench-answer');
try {
  await stack.startApps();
  const tenant = await createMeasuredTenant(stack, ['iq:import', 'iq:read']);
  console.log(`ingesting ${items.length} items (${chunkCount} chunks)…`);
  const { failed } = await ingestAll(stack, tenant, items);
  if (failed > 0) throw new Error(`${failed} items failed to ingest`);

  const questions = Array.from({ length: questionCount }, (_, i) => evalQuestions[i % evalQuestions.length]!.question);
  const chat = chatClient(stack.apiUrl, tenant.operatorKey);
  // Warm-up: first connections and the first workflow of the worker.
  for (const question of questions.slice(0, 5)) await chat.ask(await chat.start(), question);

  const searchMs: number[] = [];
  for (const question of questions) {
    const started = performance.now();
    const response = await fetch(
      `${stack.apiUrl}/knowledge-bases/${tenant.knowledgeBaseId}/search?q=${encodeURIComponent(question)}&limit=10`,
      {
        headers: tenant.headers,
      },
    );
    await response.arrayBuffer();
    searchMs.push(performance.now() - started);
  }

  const firstTokenMs: number[] = [];
  const fullAnswerMs: number[] = [];
  const outcomes: Record<string, number> = {};
  for (const question of questions) {
    const visitor = await chat.start();
    const answer = await chat.ask(visitor, question);
    const firstToken = answer.events.find((event) => event.event === 'token');
    const done = answer.events.find((event) => event.event === 'done');
    if (!firstToken || !done) throw new Error(`no answer to "${question}": ${JSON.stringify(answer.events.at(-1))}`);
    firstTokenMs.push(firstToken.atMs);
    fullAnswerMs.push(done.atMs);
    outcomes[done.data.message.outcome] = (outcomes[done.data.message.outcome] ?? 0) + 1;
  }

  const composeStoredMs = await measureComposing(true);
  const composeMs = await measureComposing(false);
  const figures = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)) };
  };
  const search = figures(searchMs);
  const first = figures(firstTokenMs);
  const full = figures(fullAnswerMs);
  const compose = figures(composeMs);
  const composeStored = figures(composeStoredMs);
  console.log(`\nbench:answer (${chunkCount} chunks, ${questions.length} questions, profile ${stack.profile})`);
  console.table({
    'search alone (ms)': search,
    'chat: first token (ms)': first,
    'chat: full answer (ms)': full,
    'composing, sentences stored (ms)': composeStored,
    'composing, every sentence embedded (ms)': compose,
  });
  console.log('answer outcomes:', outcomes);
  console.log(
    `goal: full answer p95 <= 200 ms: ${full.p95 <= 200 ? 'met' : 'NOT met'}; search p95 <= 40 ms: ${search.p95 <= 40 ? 'met' : 'NOT met'}`,
  );
} finally {
  await stack.stop();
}

/**
 * The extractive composer on three sources of 3,000 characters, more than retrieval hands over (one
 * chunk each), with or without their sentences' vectors; without, every call embeds every sentence
 * again (no cache: the worst case).
 */
async function measureComposing(stored: boolean): Promise<number[]> {
  const composer = createExtractiveComposer({ embedder: model });
  const sources = await Promise.all(
    evalCorpus.slice(0, 3).map(async (item, i) => {
      const text = normalizeText(item.data.content).repeat(4).slice(0, 3_000);
      const sentences = answerSentencesOf(item.data.title, text);
      return {
        n: i + 1,
        sourceKey: item.externalId,
        externalId: item.externalId,
        integrationId: item.integrationId,
        sourceType: item.sourceType,
        title: item.data.title,
        url: null,
        text,
        score: 1,
        similarity: 0.6,
        ...(stored
          ? { sentenceVectors: decodeSentenceVectors(encodeSentenceVectors(sentences, await model.embed(sentences))) }
          : {}),
      };
    }),
  );
  const sink = { token() {}, reset() {} };
  const times: number[] = [];
  for (let i = 0; i < 220; i++) {
    const started = performance.now();
    await composer.generate({ question: evalQuestions[i % evalQuestions.length]!.question, locale: 'en', sources }, sink);
    if (i >= 20) times.push(performance.now() - started);
  }
  return times;
}
