/**
 * `npm run eval`: ingests the evaluation corpus through the public API on a stack of its own, asks
 * every question, and prints hit@1, hit@3, MRR and the "I don't know" rates of the stack (hybrid
 * retrieval and answers through the public chat API) beside plain BM25 over the same chunks.
 */
import pLimit from 'p-limit';
import { createEmbedder } from '#knowledge/embeddings/index.js';
import { collectionName, type ChunkProperties } from '#knowledge/chunk-index.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { chatClient } from '#testing/chat.js';
import { createMeasuredTenant, ingestAll, startMeasuredStack } from '../bench/measured-stack.js';
import { evalCorpus } from './corpus.js';
import { formatReport, rankOf, scoreRankings, type ScoredRow } from './metrics.js';
import { evalQuestions } from './questions.js';

const stack = await startMeasuredStack('eval');
try {
  await stack.startApps();
  const tenant = await createMeasuredTenant(stack, ['iq:import', 'iq:read']);
  const { failed } = await ingestAll(stack, tenant, evalCorpus);
  if (failed > 0) throw new Error(`${failed} corpus items failed to ingest`);

  const weaviate = await createWeaviateClient({ url: stack.env.WEAVIATE_URL!, grpcPort: Number(stack.env.WEAVIATE_GRPC_PORT) });
  const chunks = weaviate.collections
    .get<ChunkProperties>(collectionName(createEmbedder({ provider: 'local', dimensions: 512 }).space))
    .withTenant(tenant.knowledgeBaseId);
  const chat = chatClient(stack.apiUrl, tenant.operatorKey);

  const ask = pLimit(4);
  const results = await Promise.all(
    evalQuestions.map((question) =>
      ask(async () => {
        const search = await fetch(
          `${stack.apiUrl}/knowledge-bases/${tenant.knowledgeBaseId}/search?q=${encodeURIComponent(question.question)}&limit=10`,
          {
            headers: tenant.headers,
          },
        );
        const hybrid = ((await search.json()) as { results: Array<{ externalId: string }> }).results.map((row) => row.externalId);
        const keyword = await chunks.query.bm25(question.question, {
          limit: 50,
          queryProperties: [{ name: 'title', weight: 2 }, 'text'],
        });
        const bm25 = [...new Set(keyword.objects.map((object) => object.properties.externalId))].slice(0, 10);
        // One conversation per question: answers do not depend on earlier turns.
        const answer = await chat.ask(await chat.start(), question.question);
        return {
          question,
          hybrid,
          bm25,
          reply: answer.reply as { outcome: string; citations: Array<{ externalId: string }> } | undefined,
        };
      }),
    ),
  );
  await weaviate.close();

  const ours: ScoredRow[] = results.map(({ question, hybrid, reply }) => ({
    answeredBy: question.answeredBy,
    ranking: hybrid,
    saidUnknown: reply?.outcome === 'unknown',
  }));
  const keywordOnly: ScoredRow[] = results.map(({ question, bm25 }) => ({
    answeredBy: question.answeredBy,
    ranking: bm25,
    saidUnknown: bm25.length === 0,
  }));
  const scores = { 'hybrid (our stack)': scoreRankings(ours), 'plain BM25': scoreRankings(keywordOnly) };

  const answered = results.filter(({ question, reply }) => question.answeredBy.length > 0 && reply?.outcome === 'answered');
  const rightCitation = answered.filter(({ question, reply }) =>
    reply!.citations.some((citation) => question.answeredBy.includes(citation.externalId)),
  );
  const handoffs = results.filter(({ reply }) => reply?.outcome === 'handoff').length;
  const misses = results
    .filter(({ question, hybrid }) => question.answeredBy.length > 0 && (rankOf(hybrid, question.answeredBy) ?? 99) > 3)
    .map(
      ({ question, hybrid }) =>
        `  ${question.id}: "${question.question}" wants ${question.answeredBy.join('/')}, got ${hybrid.slice(0, 3).join(', ')}`,
    );

  console.log(`\neval: ${evalCorpus.length} items, ${evalQuestions.length} questions\n`);
  console.log(formatReport(scores));
  console.log(`\nanswers citing a right source: ${rightCitation.length} of ${answered.length} answered questions`);
  console.log(`questions handed to a person: ${handoffs}`);
  console.log(`\nmisses of the stack at 3 (${misses.length}):\n${misses.join('\n')}`);
  const beats = scores['hybrid (our stack)'].hitAt3 > scores['plain BM25'].hitAt3;
  console.log(`\nthe stack beats plain BM25 on hit@3: ${beats ? 'yes' : 'NO'}`);
  process.exitCode = beats ? 0 : 1;
} finally {
  await stack.stop();
}
