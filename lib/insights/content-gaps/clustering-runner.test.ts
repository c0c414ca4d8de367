import test from 'ava';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';
import { useTestRedis } from '#testing/redis.js';
import { defaultGapThreshold } from './clustering.js';
import { clusterInProcess, clusteringThread } from './clustering-runner.js';
import type { ClusteringTask } from './clustering-task.js';
import { heldOutGroups, heldOutUnrelated } from './fixtures/held-out.js';
import { embedFixtures } from './fixtures/score.js';
import { contentGapKeys, createContentGapStore } from './store.js';
import { encodeVector, spaceKey } from './vectors.js';

const redis = useTestRedis(test);
let thread: ReturnType<typeof clusteringThread>;
test.before(() => {
  thread = clusteringThread({
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: redis.prefix,
    logLevel: 'silent',
  });
});
test.after.always(() => thread?.close());

test('on the held-out set, the clustering thread loads, clusters and stores what the in-process clustering does', async (t) => {
  const model = await loadMiniLmEmbedder(defaultModelDir());
  const store = createContentGapStore(redis.redis(), redis.prefix);
  const owner = { tenantId: 'tenant-a', operatorId: 'op-held-out' };
  const space = spaceKey(model.space);
  const fixtures = await embedFixtures({ groups: heldOutGroups, unrelated: heldOutUnrelated }, model);
  // Asked over the last hours (within the retention whenever the test runs), plus one of another embedding space.
  const gaps = fixtures.map(({ id, question, channel, reason, closestSources, vector }, i) => ({
    id,
    question,
    askedAt: new Date(Date.now() - (fixtures.length - i) * 60_000).toISOString(),
    knowledgeBaseId: 'kb-1',
    conversationId: `conversation-${i}`,
    messageId: 'm1.reply',
    locale: 'en' as const,
    channel,
    reason,
    closestSources,
    space,
    vector: encodeVector(vector),
  }));
  for (const gap of [...gaps, { ...gaps[0]!, id: 'other-space', space: 'other/model/384' }]) await store.add(owner, gap);
  const task: ClusteringTask = { owner, space, threshold: defaultGapThreshold, clusteredAt: '2026-03-01T00:00:00.000Z' };
  const keys = contentGapKeys(redis.prefix);
  const stored = async () => ({
    results: (await store.readClusters(owner)).results,
    details: await redis.redis().hGetAll(keys.details(owner)),
  });

  // The largest cluster marked addressed, with its centre and members, and the questions clustered again.
  await clusterInProcess(store)(task);
  const [clusterId, detail] = Object.entries((await stored()).details)
    .map(([id, json]) => [id, JSON.parse(json) as { centre: string; members: string[] }] as const)
    .sort(([, a], [, b]) => b.members.length - a.members.length)[0]!;
  await store.setMark(owner, {
    clusterId,
    articleId: 'a-1',
    sourceKey: null,
    note: null,
    addressedAt: gaps[0]!.askedAt,
    by: { userId: 'u-1', name: 'Ada' },
    centre: detail.centre,
    space,
    members: detail.members,
  });

  const inProcess = await clusterInProcess(store)(task);
  const storedInProcess = await stored();
  await redis.redis().del([keys.clusters(owner), keys.details(owner)]);
  const onThread = await thread.cluster(task);
  const storedOnThread = await stored();

  t.deepEqual(onThread, inProcess);
  t.like(onThread, { covered: gaps.length, leftOut: 1 });
  t.true(onThread.clusters > 1 && onThread.clusters < gaps.length, `${onThread.clusters} clusters`);
  t.deepEqual(storedOnThread, storedInProcess);
  t.like(storedOnThread.results, { clusteredAt: task.clusteredAt, covered: gaps.length, coveredSeq: gaps.length + 1 });
  const members = (JSON.parse(storedOnThread.details[clusterId]!) as { members: string[] }).members;
  t.true(detail.members.every((member) => members.includes(member)));
});
