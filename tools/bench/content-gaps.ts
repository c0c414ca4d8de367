/**
 * `npm run bench:content-gaps [-- --stored 10000 --runs 20]`: the content gaps' clustering on one
 * operator's `stored` gaps, on a stack of its own (only its Redis is used).
 *
 * About 1,000 distinct questions are generated from templates (10 wordings of each of 100 topics: 20
 * products × 5 things asked about them), embedded once with the real model (all-MiniLM-L6-v2), and
 * reused as re-asks (other conversations, other days over 90) until `stored` gaps are written
 * straight to the store (`lib/insights/content-gaps/store.ts`, its Lua script, as the recorder writes).
 * Then, `runs` times each: the baseline, loading the gaps from Redis (`load`), and the clustering
 * activity (`clusterContentGaps`: load, cluster, store the result), twice: all of it on the event
 * loop (`clusterInProcess`, as before the clustering thread) and all of it on the worker's clustering
 * thread, with its own Redis connection (`clusteringThread`), as the worker runs it. Each reports
 * the delay of this process's event loop while it ran (`monitorEventLoopDelay`): what every other
 * activity of a worker would wait.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { MockActivityEnvironment } from '@temporalio/testing';
import pLimit from 'p-limit';
import { createContentGapsActivities } from '#activities/insights/content-gaps.js';
import { clusterInProcess, clusteringThread } from '#insights/content-gaps/clustering-runner.js';
import type { ClusterGaps } from '#insights/content-gaps/clustering-task.js';
import { gapIdOf } from '#insights/content-gaps/recorder.js';
import { createContentGapStore } from '#insights/content-gaps/store.js';
import type { Gap } from '#insights/content-gaps/types.js';
import { encodeVector, spaceKey, unitVector } from '#insights/content-gaps/vectors.js';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';
import type { RedisClient } from '#platform/redis.js';
import { log } from '#deploy/local/output.js';
import { percentile, round, startMeasuredStack } from './measured-stack.js';

const { values: args } = parseArgs({
  options: { stored: { type: 'string', default: '10000' }, runs: { type: 'string', default: '20' } },
});
const stored = Number(args.stored);
const runs = Number(args.runs);

const products = [
  'hiking boots',
  'rain jacket',
  'coffee machine',
  'electric kettle',
  'yoga mat',
  'office chair',
  'standing desk',
  'wireless headphones',
  'backpack',
  'camping tent',
  'sleeping bag',
  'road bike',
  'winter gloves',
  'wool sweater',
  'smart watch',
  'kitchen knife set',
  'cast iron pan',
  'baby stroller',
  'garden hose',
  'desk lamp',
];
const aspects: ((item: string) => string)[][] = [
  [
    (x) => `What is the warranty on the ${x}?`,
    (x) => `How long is the ${x} under guarantee?`,
    (x) => `Does the ${x} come with a warranty?`,
    (x) => `Is there a guarantee if the ${x} breaks?`,
    (x) => `How many years of warranty do I get with the ${x}?`,
    (x) => `What does the ${x} warranty cover?`,
    (x) => `Can I claim warranty for a broken ${x}?`,
    (x) => `Is the ${x} covered by a manufacturer guarantee?`,
    (x) => `Who do I contact about a warranty claim for my ${x}?`,
    (x) => `Does the warranty of the ${x} include repairs?`,
  ],
  [
    (x) => `What colours does the ${x} come in?`,
    (x) => `Is the ${x} available in other colours?`,
    (x) => `Can I get the ${x} in black?`,
    (x) => `Which colour options are there for the ${x}?`,
    (x) => `Do you sell the ${x} in blue?`,
    (x) => `Is there a red version of the ${x}?`,
    (x) => `Are there more colours of the ${x} coming?`,
    (x) => `Can I choose the colour of my ${x}?`,
    (x) => `Does the ${x} exist in white?`,
    (x) => `Which colours of the ${x} are in stock?`,
  ],
  [
    (x) => `How do I clean the ${x}?`,
    (x) => `What is the best way to wash the ${x}?`,
    (x) => `Can I put the ${x} in the washing machine?`,
    (x) => `How should I care for my ${x}?`,
    (x) => `Which cleaning products are safe for the ${x}?`,
    (x) => `How often should the ${x} be cleaned?`,
    (x) => `Is the ${x} easy to clean?`,
    (x) => `How do I remove stains from the ${x}?`,
    (x) => `What are the care instructions for the ${x}?`,
    (x) => `Can the ${x} be cleaned with water?`,
  ],
  [
    (x) => `How much does the ${x} weigh?`,
    (x) => `What is the weight of the ${x}?`,
    (x) => `Is the ${x} heavy?`,
    (x) => `How light is the ${x}?`,
    (x) => `Can you tell me the weight of the ${x} in kilograms?`,
    (x) => `Is the ${x} light enough to carry around?`,
    (x) => `How many grams is the ${x}?`,
    (x) => `What does the ${x} weigh when packed?`,
    (x) => `Is the ${x} lighter than the previous model?`,
    (x) => `Is there a lightweight version of the ${x}?`,
  ],
  [
    (x) => `When will the ${x} be back in stock?`,
    (x) => `Is the ${x} sold out?`,
    (x) => `Can I pre-order the ${x}?`,
    (x) => `When do you restock the ${x}?`,
    (x) => `Will you get more ${x} soon?`,
    (x) => `Why is the ${x} unavailable?`,
    (x) => `Can I be notified when the ${x} is available again?`,
    (x) => `Is the ${x} discontinued?`,
    (x) => `How long until the ${x} is available?`,
    (x) => `Do you have the ${x} in stock in your stores?`,
  ],
];
const texts = products.flatMap((item) => aspects.flatMap((wordings) => wordings.map((wording) => wording(item))));

const stack = await startMeasuredStack('content-gaps');
try {
  const redis = stack.redis as unknown as RedisClient;
  const store = createContentGapStore(redis, stack.prefix);
  const owner = { tenantId: 'bench-tenant', operatorId: 'bench-operator' };

  log(`embedding ${texts.length} distinct questions with the local model`);
  const model = await loadMiniLmEmbedder(defaultModelDir());
  const embedStart = performance.now();
  const vectors = (await model.embed(texts)).map((vector) => encodeVector(unitVector(vector)));
  const embedSeconds = (performance.now() - embedStart) / 1000;

  log(`writing ${stored} gaps (${texts.length} questions, each asked again in other conversations)`);
  const space = spaceKey(model.space);
  const start = Date.now() - 90 * 86_400_000;
  const writeLimit = pLimit(32);
  const writeStart = performance.now();
  await Promise.all(
    Array.from({ length: stored }, (_, i) =>
      writeLimit(() => {
        const t = (i * 7919) % texts.length;
        const conversationId = `bench-conversation-${i}`;
        const gap: Gap = {
          id: gapIdOf(conversationId, 'm1.reply'),
          question: texts[t]!,
          askedAt: new Date(start + Math.floor((i / stored) * 90 * 86_400_000)).toISOString(),
          knowledgeBaseId: 'bench-kb',
          conversationId,
          messageId: 'm1.reply',
          locale: 'en',
          channel: i % 5 === 0 ? 'messaging' : 'widget',
          reason: i % 4 === 0 ? 'rated_down' : 'unknown',
          closestSources: [{ key: `bench-kb/topic-${Math.floor(t / 10)}`, title: `Topic ${Math.floor(t / 10)}`, score: 0.4 }],
          space,
          vector: vectors[t]!,
        };
        return store.add(owner, gap);
      }),
    ),
  );
  const writeSeconds = (performance.now() - writeStart) / 1000;

  const loading = await timed(async () => {
    const { gaps } = await store.load(owner);
    if (gaps.length !== stored) throw new Error(`loaded ${gaps.length} gaps, not ${stored}`);
  });

  /** The activity, clustering through `cluster`: one run to warm up, then `runs` measured. */
  async function clusteringWith(cluster: ClusterGaps) {
    const { clusterContentGaps } = createContentGapsActivities({ space, cluster });
    const run = (): ReturnType<typeof clusterContentGaps> => new MockActivityEnvironment().run(clusterContentGaps, owner);
    const result = await run();
    return { result, ...(await timed(run)) };
  }
  const onLoop = await clusteringWith(clusterInProcess(store));
  const thread = clusteringThread({ redisUrl: stack.env.REDIS_URL!, prefix: stack.prefix, logLevel: 'warn' });
  const onThread = await clusteringWith(thread.cluster).finally(() => thread.close());
  if (onThread.result.clusters !== onLoop.result.clusters) throw new Error('the thread clustered otherwise');
  const result = onThread.result;
  const resultBytes = (await redis.strLen(`${stack.prefix}:insights:${owner.tenantId}:${owner.operatorId}:gaps:clusters`)) ?? 0;

  console.log('\nbench:content-gaps');
  console.table({
    'gaps stored (one operator)': stored,
    'distinct questions (100 topics × 10 wordings)': texts.length,
    'seconds to embed the distinct questions': round(embedSeconds, 2),
    'seconds to write the gaps (32 at a time)': round(writeSeconds, 2),
    runs,
    ...figures('baseline: load from Redis', loading),
    ...figures('clustering activity, on the event loop (before)', onLoop),
    ...figures('clustering activity, on the clustering thread', onThread),
    'on the thread / on the loop (median)': round(percentile(onThread.times, 0.5) / percentile(onLoop.times, 0.5), 2),
    'clustering activity on the thread / load (median)': round(
      percentile(onThread.times, 0.5) / percentile(loading.times, 0.5),
      2,
    ),
    'gaps covered': result.covered,
    clusters: result.clusters,
    'stored result, kB': round(resultBytes / 1024),
  });
} finally {
  await stack.stop();
}

/** `runs` runs of `run`, one at a time: their times (sorted) and the event loop's delay meanwhile. */
async function timed(run: () => Promise<unknown>) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const times: number[] = [];
  delay.enable();
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    await run();
    times.push(performance.now() - began);
  }
  delay.disable();
  times.sort((a, b) => a - b);
  return { times, delayP99: delay.percentile(99) / 1e6, delayMax: delay.max / 1e6 };
}

function figures(name: string, { times, delayP99, delayMax }: Awaited<ReturnType<typeof timed>>) {
  return {
    [`${name}, median ms`]: round(percentile(times, 0.5)),
    [`${name}, p95 ms`]: round(percentile(times, 0.95)),
    [`${name}, event-loop delay p99 ms`]: round(delayP99),
    [`${name}, event-loop delay max ms`]: round(delayMax),
  };
}
