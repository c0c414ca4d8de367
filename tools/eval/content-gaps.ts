/**
 * `npm run eval:content-gaps`: chooses the content-gaps clustering threshold on the TUNING set
 * (`lib/insights/content-gaps/fixtures/tuning.ts`) with the local model: pairwise precision, recall and
 * F1 per threshold; the middle of the thresholds with the best F1 is chosen (the farthest from
 * both edges: merging unrelated questions below, splitting paraphrases above). It then prints the held-out set's score at that threshold, for information only:
 * `clustering.test.ts` checks it.
 */
import { defaultGapThreshold } from '#insights/content-gaps/clustering.js';
import { heldOutGroups, heldOutUnrelated } from '#insights/content-gaps/fixtures/held-out.js';
import { embedFixtures, scoreClustering } from '#insights/content-gaps/fixtures/score.js';
import { tuningGroups, tuningUnrelated } from '#insights/content-gaps/fixtures/tuning.js';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';

const model = await loadMiniLmEmbedder(defaultModelDir());
const tuning = await embedFixtures({ groups: tuningGroups, unrelated: tuningUnrelated }, model);
const rows: Record<string, Record<string, number>> = {};
const scores: { threshold: number; f1: number }[] = [];
for (let threshold = 0.3; threshold <= 0.851; threshold += 0.025) {
  const score = scoreClustering(tuning, threshold);
  rows[threshold.toFixed(3)] = {
    precision: round(score.precision),
    recall: round(score.recall),
    f1: round(score.f1),
    [`groups whole /${tuningGroups.length}`]: score.groupsWhole,
    [`unrelated alone /${tuningUnrelated.length}`]: score.unrelatedAlone,
  };
  scores.push({ threshold, f1: score.f1 });
}
console.log('tuning set');
console.table(rows);
const bestF1 = Math.max(...scores.map((score) => score.f1));
const plateau = scores.filter((score) => score.f1 === bestF1).map((score) => score.threshold);
const chosen = plateau[Math.floor((plateau.length - 1) / 2)]!;
console.log(
  `best F1 ${round(bestF1)} from ${plateau[0]!.toFixed(3)} to ${plateau.at(-1)!.toFixed(3)}: chosen ${chosen.toFixed(3)}; defaultGapThreshold is ${defaultGapThreshold}`,
);
const heldOut = await embedFixtures({ groups: heldOutGroups, unrelated: heldOutUnrelated }, model);
console.log(`held-out at ${defaultGapThreshold}:`, scoreClustering(heldOut, defaultGapThreshold));

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
