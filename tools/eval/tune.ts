/**
 * `npm run eval:tune`: chooses how the default model ranks and when it abstains, on the evaluation
 * set's tuning questions only, and shows how each choice does on the held-out questions it never saw.
 * It ingests the corpus through the public API, then runs the same retrieval code the API and the
 * worker run, in-process, over a grid of settings. It prints the grids; a person writes the chosen
 * values into the code (`defaultRanking`, `defaultSecondChunkWeight`, the local evidence rule in
 * lib/platform/config.ts) and into docs/answering.md. `TUNE_RANKING=default npm run eval:tune` skips the
 * ranking grid and chooses only the evidence rule, over the ranking in the code.
 */
import { createChunkIndex, defaultRanking, type HybridRanking } from '#knowledge/chunk-index.js';
import { createEmbedder } from '#knowledge/embeddings/index.js';
import { cachingEmbedder } from '#knowledge/embeddings/query-cache.js';
import { createKnowledgeSearch, defaultSecondChunkWeight, type RetrievedSource } from '#knowledge/search.js';
import { createSourceStore } from '#knowledge/sources.js';
import { answerRetrieval } from '#answering/answer-question.js';
import { isCloseEnough, type EvidenceRule } from '#answering/evidence.js';
import { closestSentences } from '#answering/extractive/composer.js';
import { termCoverage } from '#answering/question-terms.js';
import { mendTypos } from '#answering/typos.js';
import type { RedisClient } from '#platform/redis.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { createMeasuredTenant, ingestAll, startMeasuredStack } from '#bench/measured-stack.js';
import { evalCorpus } from './corpus.js';
import { scoreRankings, type Scores } from './metrics.js';
import { evalQuestions, type EvalQuestion } from './questions.js';

const tuning = evalQuestions.filter((question) => question.split === 'tuning');
const heldOut = evalQuestions.filter((question) => question.split === 'held-out');

const stack = await startMeasuredStack('tune');
try {
  await stack.startApps();
  const tenant = await createMeasuredTenant(stack, ['iq:import', 'iq:read']);
  const { failed } = await ingestAll(stack, tenant, evalCorpus);
  if (failed > 0) throw new Error(`${failed} corpus items failed to ingest`);

  const weaviate = await createWeaviateClient({ url: stack.env.WEAVIATE_URL!, grpcPort: Number(stack.env.WEAVIATE_GRPC_PORT) });
  const model = await createEmbedder({ provider: 'local' });
  const embedder = cachingEmbedder(model, { maxEntries: 50_000 });
  const chunkIndex = createChunkIndex(weaviate, model.space);
  const sources = createSourceStore(stack.redis as unknown as RedisClient, stack.prefix);
  const searchWith = (ranking: HybridRanking, secondChunkWeight: number, minSimilarity: number) =>
    createKnowledgeSearch({ chunkIndex, embedder, sources, minSimilarity, ranking, secondChunkWeight });

  // 1. The ranking: best MRR@10 over the tuning questions, then hit@1.
  type RankingSetting = { ranking: HybridRanking; secondChunkWeight: number; minSimilarity: number };
  const settings: RankingSetting[] = [];
  for (const alpha of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    for (const fusion of ['Ranked', 'RelativeScore'] as const)
      for (const secondChunkWeight of [0, 0.25, 0.5])
        for (const minSimilarity of [0, 0.2]) settings.push({ ranking: { alpha, fusion }, secondChunkWeight, minSimilarity });

  async function rankingScores(setting: RankingSetting, questions: EvalQuestion[]): Promise<Scores> {
    const search = searchWith(setting.ranking, setting.secondChunkWeight, setting.minSimilarity);
    const rows = [];
    for (const question of questions) {
      const results = await search.search(tenant.tenantId, tenant.knowledgeBaseId, question.question, 10);
      rows.push({ answeredBy: question.answeredBy, ranking: results.map((row) => row.externalId), saidUnknown: false });
    }
    return scoreRankings(rows);
  }
  const graded = [];
  const quick = process.env.TUNE_RANKING === 'default';
  for (const setting of quick
    ? [{ ranking: defaultRanking, secondChunkWeight: defaultSecondChunkWeight, minSimilarity: 0.2 }]
    : settings)
    graded.push({ setting, scores: await rankingScores(setting, tuning) });
  graded.sort((a, b) => b.scores.mrr - a.scores.mrr || b.scores.hitAt1 - a.scores.hitAt1);
  const describe = ({ ranking, secondChunkWeight, minSimilarity }: RankingSetting) =>
    `alpha ${ranking.alpha} ${ranking.fusion.padEnd(13)} second chunk ${secondChunkWeight} vector floor ${minSimilarity}`;
  console.log(`\nranking, on ${tuning.length} tuning questions (best 10 of ${settings.length}):`);
  for (const { setting, scores } of graded.slice(0, 10)) console.log(`  ${describe(setting)}  ${rankingFigures(scores)}`);
  const chosen = graded[0]!.setting;
  console.log(`chosen: ${describe(chosen)}`);
  console.log(`  on ${heldOut.length} held-out questions: ${rankingFigures(await rankingScores(chosen, heldOut))}`);

  // 2. The evidence rule, over the chosen ranking's retrieval: the most unanswerable questions
  // declined and answerable ones cited right, with at most 8 % of answerable ones declined.
  const search = searchWith(chosen.ranking, chosen.secondChunkWeight, chosen.minSimilarity);
  const retrieved = new Map<EvalQuestion, RetrievedSource[]>();
  for (const question of evalQuestions) {
    const found = await search.retrieve(tenant.tenantId, tenant.knowledgeBaseId, question.question, {
      ...answerRetrieval,
      minSimilarity: 0,
    });
    retrieved.set(question, found);
  }
  // The closest sentence of each retrieved source, as the composer embeds it, and its coverage of the question.
  const sentenceSimilarity = new Map<RetrievedSource, number>();
  const coverage = new Map<RetrievedSource, number>();
  for (const question of evalQuestions) {
    const sources = retrieved.get(question)!;
    // As the answerer reads it: typos mended against the retrieved sources' words.
    const readAs = mendTypos(question.question, sources, embedder.tokenWindow);
    const closest = await closestSentences(readAs, sources, embedder);
    sources.forEach((source, i) => {
      coverage.set(source, termCoverage(readAs, `${source.title}\n${source.text}`));
      sentenceSimilarity.set(source, closest[i]!);
    });
  }

  const rules: EvidenceRule[] = [];
  for (let minSimilarity = 0.1; minSimilarity <= 0.451; minSimilarity += 0.05)
    for (const minCoverage of [0, 0.2, 1 / 3, 0.5])
      for (const confidentSimilarity of [0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 2])
        for (let minSentenceSimilarity = 0.25; minSentenceSimilarity <= 0.651; minSentenceSimilarity += 0.025)
          if (confidentSimilarity > minSimilarity)
            rules.push({
              minSimilarity: round(minSimilarity),
              minCoverage,
              confidentSimilarity,
              minSentenceSimilarity: round(minSentenceSimilarity),
            });

  const evidenceFigures = (rule: EvidenceRule, questions: EvalQuestion[]) => {
    let declinedUnanswerable = 0;
    let declinedAnswerable = 0;
    let firstRight = 0;
    for (const question of questions) {
      // As answeringSources decides, from figures computed once.
      const first = retrieved
        .get(question)!
        .find(
          (source) =>
            isCloseEnough(source.similarity, () => coverage.get(source)!, rule) &&
            sentenceSimilarity.get(source)! >= rule.minSentenceSimilarity,
        );
      if (question.answeredBy.length === 0) declinedUnanswerable += first ? 0 : 1;
      else if (!first) declinedAnswerable += 1;
      else if (question.answeredBy.includes(first.externalId)) firstRight += 1;
    }
    const unanswerable = questions.filter((question) => question.answeredBy.length === 0).length;
    const answerable = questions.length - unanswerable;
    return {
      unknownCorrect: declinedUnanswerable / unanswerable,
      unknownWrong: declinedAnswerable / answerable,
      firstRight: firstRight / answerable,
    };
  };
  const ruleGrades = rules
    .map((rule) => ({ rule, figures: evidenceFigures(rule, tuning) }))
    .filter(({ figures }) => figures.unknownWrong <= 0.08)
    .sort((a, b) => b.figures.unknownCorrect + b.figures.firstRight - (a.figures.unknownCorrect + a.figures.firstRight));
  const describeRule = (rule: EvidenceRule) =>
    `chunk similarity ≥ ${rule.minSimilarity.toFixed(2)}, coverage > ${rule.minCoverage.toFixed(2)} unless similarity ≥ ${rule.confidentSimilarity}, sentence ≥ ${rule.minSentenceSimilarity.toFixed(3)}`;
  const evidenceLine = (figures: ReturnType<typeof evidenceFigures>) =>
    `unknown when unanswerable ${figures.unknownCorrect.toFixed(3)}, when answerable ${figures.unknownWrong.toFixed(3)}, first source right ${figures.firstRight.toFixed(3)}`;
  console.log(`\nevidence rule, on the tuning questions (best 15 of ${rules.length} with at most 8 % false "I don't know"):`);
  for (const { rule, figures } of ruleGrades.slice(0, 15)) console.log(`  ${describeRule(rule)}: ${evidenceLine(figures)}`);
  const chosenRule = ruleGrades[0]?.rule;
  if (chosenRule) {
    console.log(`chosen: ${describeRule(chosenRule)}`);
    console.log(`  on the held-out questions: ${evidenceLine(evidenceFigures(chosenRule, heldOut))}`);
  }

  // What the chosen retrieval sees, for reading: each question's closest source and its evidence.
  console.log('\nclosest source per question (similarity of its closest chunk and sentence):');
  for (const question of evalQuestions) {
    const [best] = retrieved.get(question)!;
    const mark =
      question.answeredBy.length === 0
        ? 'unanswerable'
        : question.answeredBy.includes(best?.externalId ?? '')
          ? 'right'
          : 'WRONG';
    console.log(
      `  ${question.split.padEnd(8)} ${question.kind.padEnd(12)} ${mark.padEnd(12)} ${best ? `${best.similarity.toFixed(3)} ${best.externalId}` : '-'}  "${question.question}"`,
    );
  }
  await weaviate.close();
} finally {
  await stack.stop();
}

function rankingFigures(scores: Scores): string {
  return `hit@1 ${scores.hitAt1.toFixed(3)} hit@3 ${scores.hitAt3.toFixed(3)} MRR ${scores.mrr.toFixed(3)}`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
