import test from 'ava';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';
import { defaultGapThreshold } from './clustering.js';
import { clusterInProcess, startClusteringThread } from './clustering-runner.js';
import type { ClusteringTask } from './clustering-task.js';
import { heldOutGroups, heldOutUnrelated } from './fixtures/held-out.js';
import { embedFixtures } from './fixtures/score.js';
import { encodeVector } from './vectors.js';

const thread = startClusteringThread();
test.after.always(() => thread.close());

test('on the held-out set, the clustering thread gives the clusters the in-process clustering gives', async (t) => {
  const model = await loadMiniLmEmbedder(defaultModelDir());
  const gaps = (await embedFixtures({ groups: heldOutGroups, unrelated: heldOutUnrelated }, model)).map(
    ({ id, question, askedAt, channel, reason, closestSources, vector }) => ({
      id,
      question,
      askedAt,
      channel,
      reason,
      closestSources,
      vector: encodeVector(vector),
    }),
  );
  const firstClustering = await clusterInProcess({ gaps, fixedCentres: [], threshold: defaultGapThreshold });
  // The largest cluster marked addressed, with its centre and members, and the questions clustered again.
  const [id, detail] = [...firstClustering.details].sort(([, a], [, b]) => b.members.length - a.members.length)[0]!;
  const task: ClusteringTask = {
    gaps,
    fixedCentres: [{ clusterId: id, centre: detail.centre, members: detail.members, addressedAt: gaps[0]!.askedAt }],
    threshold: defaultGapThreshold,
  };

  const inProcess = await clusterInProcess(task);
  const onThread = await thread.cluster(task);

  t.true(inProcess.clusters.length > 1 && inProcess.clusters.length < gaps.length, `${inProcess.clusters.length} clusters`);
  t.true(onThread.details instanceof Map);
  t.deepEqual(onThread, inProcess);
  t.true(detail.members.every((member) => onThread.details.get(id)!.members.includes(member)));
});
