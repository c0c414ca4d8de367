/**
 * `npm run eval`: on a stack of its own, ingests the evaluation corpus through the public API once
 * per embedder (the default model, then the hashed n-grams) and asks every question of each through
 * the public search and chat APIs; plain BM25 over the default's chunks is the baseline. Prints
 * hit@1, hit@3, MRR, the "I don't know" rates and the first citation's rightness for all three,
 * overall, per split (tuning / held-out) and per kind of question, then the questions the default
 * still gets wrong.
 */
import pLimit from 'p-limit';
import { collectionName, type ChunkProperties } from '#knowledge/chunk-index.js';
import { createEmbedder } from '#knowledge/embeddings/index.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { chatClient } from '#testing/chat.js';
import { createMeasuredTenant, ingestAll, startMeasuredStack, type MeasuredStack } from '#bench/measured-stack.js';
import { evalCorpus } from './corpus.js';
import { formatReport, rankOf, scoreBy, scoreRankings, type ScoredRow } from './metrics.js';
import { questionKinds, questionSplits } from './question-types.js';
import { evalQuestions, type EvalQuestion } from './questions.js';

interface Asked {
  question: EvalQuestion;
  /** externalIds as the search route ranked them. */
  ranking: string[];
  outcome: string | undefined;
  citations: string[];
}

const systems: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'MiniLM (default)', env: {} },
  { name: 'hashed n-grams', env: { EMBEDDINGS_PROVIDER: 'hashed' } },
];

const stack = await startMeasuredStack('eval');
try {
  const asked: Record<string, Asked[]> = {};
  let bm25: Asked[] = [];
  for (const system of systems) {
    console.log(`\n${system.name}: ingesting ${evalCorpus.length} items and asking ${evalQuestions.length} questions`);
    const apps = await stack.startApps(1, system.env);
    const tenant = await createMeasuredTenant(stack, ['iq:import', 'iq:read']);
    const { failed } = await ingestAll(stack, tenant, evalCorpus);
    if (failed > 0) throw new Error(`${failed} corpus items failed to ingest`);
    asked[system.name] = await askAll(stack, tenant);
    if (system === systems[0]) bm25 = await keywordBaseline(stack, tenant.knowledgeBaseId);
    await Promise.all(apps.all.map((process) => process.stop()));
  }

  const rowsOf = (answers: Asked[]): ScoredRow[] =>
    answers.map(({ question, ranking, outcome, citations }) => ({
      answeredBy: question.answeredBy,
      ranking,
      saidUnknown: outcome !== 'answered',
      ...(outcome === 'answered' && citations[0] ? { firstCitation: citations[0] } : {}),
    }));
  const columns: Record<string, ScoredRow[]> = {
    ...Object.fromEntries(Object.entries(asked).map(([name, answers]) => [name, rowsOf(answers)])),
    'plain BM25': rowsOf(bm25),
  };
  const table = (pick: (question: EvalQuestion) => boolean) =>
    formatReport(
      Object.fromEntries(
        Object.entries(columns).map(([name, rows]) => [name, scoreRankings(rows.filter((_, i) => pick(evalQuestions[i]!)))]),
      ),
    );

  console.log(`\neval: ${evalCorpus.length} items, ${evalQuestions.length} questions\n`);
  console.log(`all questions\n${table(() => true)}`);
  for (const split of questionSplits) console.log(`\n${split} questions\n${table((question) => question.split === split)}`);
  for (const [name, rows] of Object.entries(columns)) {
    console.log(
      `\nby kind of question, ${name}\n${formatReport(scoreBy(rows, (_, i) => evalQuestions[i]!.kind, questionKinds))}`,
    );
  }
  printFailures(asked[systems[0]!.name]!);

  const ours = scoreRankings(columns[systems[0]!.name]!);
  const baseline = scoreRankings(columns['plain BM25']!);
  const beats = ours.hitAt3 > baseline.hitAt3;
  console.log(`\nthe default beats plain BM25 on hit@3: ${beats ? 'yes' : 'NO'}`);
  process.exitCode = beats ? 0 : 1;
} finally {
  await stack.stop();
}

/** Every question through the public search route and, in a conversation of its own, the chat API. */
async function askAll(stack: MeasuredStack, tenant: Awaited<ReturnType<typeof createMeasuredTenant>>): Promise<Asked[]> {
  const chat = chatClient(stack.apiUrl, tenant.operatorKey);
  const ask = pLimit(4);
  return Promise.all(
    evalQuestions.map((question) =>
      ask(async () => {
        const search = await fetch(
          `${stack.apiUrl}/knowledge-bases/${tenant.knowledgeBaseId}/search?q=${encodeURIComponent(question.question)}&limit=10`,
          { headers: tenant.headers },
        );
        const results = ((await search.json()) as { results: Array<{ externalId: string }> }).results;
        const answer = await chat.ask(await chat.start(), question.question);
        const reply = answer.reply as { outcome: string; citations: Array<{ externalId: string }> } | undefined;
        return {
          question,
          ranking: results.map((row) => row.externalId),
          outcome: reply?.outcome,
          citations: reply?.citations.map((citation) => citation.externalId) ?? [],
        };
      }),
    ),
  );
}

/** Plain BM25 over the same chunks (title weighted as in our search); its "answer" cites its top source and never declines unless nothing matches. */
async function keywordBaseline(stack: MeasuredStack, knowledgeBaseId: string): Promise<Asked[]> {
  const weaviate = await createWeaviateClient({ url: stack.env.WEAVIATE_URL!, grpcPort: Number(stack.env.WEAVIATE_GRPC_PORT) });
  const space = (await createEmbedder({ provider: 'local' })).space;
  const chunks = weaviate.collections.get<ChunkProperties>(collectionName(space)).withTenant(knowledgeBaseId);
  const answers: Asked[] = [];
  for (const question of evalQuestions) {
    const keyword = await chunks.query.bm25(question.question, {
      limit: 50,
      queryProperties: [{ name: 'title', weight: 2 }, 'text'],
    });
    const ranking = [...new Set(keyword.objects.map((object) => object.properties.externalId))].slice(0, 10);
    answers.push({ question, ranking, outcome: ranking.length > 0 ? 'answered' : 'unknown', citations: ranking.slice(0, 1) });
  }
  await weaviate.close();
  return answers;
}

function printFailures(answers: Asked[]): void {
  const lines = (title: string, failing: Asked[], describe: (asked: Asked) => string) =>
    console.log(
      `\n${title} (${failing.length}):\n${failing.map((asked) => `  [${asked.question.split}/${asked.question.kind}] ${asked.question.id}: "${asked.question.question}" ${describe(asked)}`).join('\n')}`,
    );
  const answerable = answers.filter(({ question }) => question.answeredBy.length > 0);
  lines(
    'search misses at 3',
    answerable.filter(({ question, ranking }) => (rankOf(ranking, question.answeredBy) ?? 99) > 3),
    ({ question, ranking }) => `wants ${question.answeredBy.join('/')}, got ${ranking.slice(0, 3).join(', ')}`,
  );
  lines(
    'said "I don\'t know" to an answerable question',
    answerable.filter(({ outcome }) => outcome !== 'answered'),
    ({ question, ranking }) => `wants ${question.answeredBy.join('/')}, search ranked ${ranking.slice(0, 3).join(', ')}`,
  );
  lines(
    'answered citing a wrong source first',
    answerable.filter(
      ({ question, outcome, citations }) => outcome === 'answered' && !question.answeredBy.includes(citations[0] ?? ''),
    ),
    ({ question, citations }) => `wants ${question.answeredBy.join('/')}, cited ${citations.join(', ')}`,
  );
  lines(
    'answered an unanswerable question',
    answers.filter(({ question, outcome }) => question.answeredBy.length === 0 && outcome === 'answered'),
    ({ citations }) => `cited ${citations.join(', ')}`,
  );
}
