import { channels, type Channel } from '#workflows/conversations/types.js';
import { dayOf } from '../day-counters.js';
import type { ChannelQuestions, ClosestSource, ClusterDetail, GapReason, StoredCluster } from './types.js';
import { dot, encodeVector, normalizeInto, unitVector } from './vectors.js';

/**
 * Grouping an operator's gaps into clusters of questions that mean the same (pure, deterministic).
 *
 * Leader clustering in the order the questions were asked, by cosine similarity of their unit
 * vectors: each question joins the cluster whose running centre it is closest to, when at least
 * `threshold` close, or starts one. Addressed clusters come first as fixed centres (they do not
 * move) with their members kept. A second pass then assigns every question again to the closest
 * final centre (at least `threshold` close; else it stays where it was), so an early question is not
 * stuck with a centre that later moved away, and clusters left empty go. A cluster's id is its
 * earliest question's (an addressed one keeps its mark's): stable while its first question is kept.
 */

/**
 * The least cosine similarity of a question to a cluster's centre, for all-MiniLM-L6-v2 vectors:
 * the middle of the thresholds with the best pairwise F1 (1.0, from 0.475 to 0.575) on the tuning set
 * of `fixtures/tuning.ts` (`npm run eval:content-gaps`), checked on the held-out set of
 * `fixtures/held-out.ts` (`clustering.test.ts`). Other models (the OpenAI-compatible provider) were
 * not tuned for; the hashed fallback embeds words, not meaning, and clusters poorly at any threshold.
 */
export const defaultGapThreshold = 0.525;

export interface ClusterableGap {
  id: string;
  question: string;
  askedAt: string;
  channel: Channel;
  reason: GapReason;
  closestSources: ClosestSource[];
  /** Unit length. */
  vector: Float32Array;
}

/** An addressed cluster: its mark's id, centre (unit length), members, and when it was marked. */
export interface FixedCentre {
  clusterId: string;
  centre: Float32Array;
  members: readonly string[];
  addressedAt: string;
}

interface Building {
  id: string;
  fixed: FixedCentre | undefined;
  centre: Float32Array;
  sum: Float64Array;
  size: number;
}

const examplesShown = 5;
const sourcesShown = 5;

export function clusterGaps(
  gaps: readonly ClusterableGap[],
  fixedCentres: readonly FixedCentre[],
  threshold = defaultGapThreshold,
): { clusters: StoredCluster[]; details: Map<string, ClusterDetail> } {
  const ordered = [...gaps].sort((a, b) => compare(a.askedAt, b.askedAt) || compare(a.id, b.id));
  const clusters: Building[] = fixedCentres.map((fixed) => ({
    id: fixed.clusterId,
    fixed,
    centre: fixed.centre,
    sum: new Float64Array(fixed.centre.length),
    size: 0,
  }));
  const fixedMember = new Map<string, number>();
  fixedCentres.forEach((fixed, index) => fixed.members.forEach((member) => fixedMember.set(member, index)));
  const assigned = new Array<number>(ordered.length);

  // First pass: leaders in the order asked, with running centres.
  ordered.forEach((gap, g) => {
    const kept = fixedMember.get(gap.id);
    if (kept !== undefined) return void (assigned[g] = kept);
    const [best, similarity] = closest(gap.vector, clusters);
    if (best >= 0 && similarity >= threshold) {
      assigned[g] = best;
      addTo(clusters[best]!, gap.vector);
    } else {
      assigned[g] = clusters.length;
      const cluster: Building = {
        id: gap.id,
        fixed: undefined,
        centre: new Float32Array(gap.vector.length),
        sum: new Float64Array(gap.vector.length),
        size: 0,
      };
      addTo(cluster, gap.vector);
      clusters.push(cluster);
    }
  });

  // Second pass: every question to its closest final centre.
  ordered.forEach((gap, g) => {
    if (fixedMember.has(gap.id)) return;
    const [best, similarity] = closest(gap.vector, clusters);
    if (best >= 0 && similarity >= threshold) assigned[g] = best;
  });

  const members = clusters.map(() => [] as ClusterableGap[]);
  ordered.forEach((gap, g) => members[assigned[g]!]!.push(gap));
  const results: StoredCluster[] = [];
  const details = new Map<string, ClusterDetail>();
  clusters.forEach((cluster, index) => {
    const own = members[index]!;
    if (own.length === 0 && !cluster.fixed) return;
    const centre = cluster.fixed ? cluster.centre : centreOf(own);
    // Not fixed: the earliest question names it (the ids of the first pass's leaders may have moved).
    const id = cluster.fixed ? cluster.id : own[0]!.id;
    results.push(describe(id, own, centre, cluster.fixed));
    details.set(id, { centre: encodeVector(centre), members: own.map((gap) => gap.id) });
  });
  return { clusters: results, details };
}

/** Code-unit order (ISO times sort as text), without the locale's collation, which costs at 50,000 gaps. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function closest(vector: Float32Array, clusters: readonly Building[]): [number, number] {
  let best = -1;
  let bestSimilarity = -Infinity;
  for (let c = 0; c < clusters.length; c++) {
    const similarity = dot(vector, clusters[c]!.centre);
    if (similarity > bestSimilarity) [best, bestSimilarity] = [c, similarity];
  }
  return [best, bestSimilarity];
}

function addTo(cluster: Building, vector: Float32Array): void {
  cluster.size += 1;
  if (cluster.fixed) return;
  for (let i = 0; i < vector.length; i++) cluster.sum[i]! += vector[i]!;
  normalizeInto(cluster.centre, cluster.sum);
}

function centreOf(gaps: readonly ClusterableGap[]): Float32Array {
  const sum = new Float64Array(gaps[0]!.vector.length);
  for (const gap of gaps) for (let i = 0; i < sum.length; i++) sum[i]! += gap.vector[i]!;
  return unitVector(sum);
}

function describe(
  id: string,
  gaps: readonly ClusterableGap[],
  centre: Float32Array,
  fixed: FixedCentre | undefined,
): StoredCluster {
  const byChannel = new Map<Channel, ClusterableGap[]>();
  const sources = new Map<string, ClosestSource & { questions: number }>();
  let representative: ClusterableGap | undefined;
  let nearest = -Infinity;
  for (const gap of gaps) {
    const ofChannel = byChannel.get(gap.channel);
    if (ofChannel) ofChannel.push(gap);
    else byChannel.set(gap.channel, [gap]);
    const similarity = dot(gap.vector, centre);
    if (similarity > nearest) [representative, nearest] = [gap, similarity];
    for (const source of gap.closestSources) {
      const seen = sources.get(source.key);
      if (!seen) sources.set(source.key, { ...source, questions: 1 });
      else Object.assign(seen, { title: source.title, score: higher(seen.score, source.score), questions: seen.questions + 1 });
    }
  }
  return {
    id,
    channels: Object.fromEntries(
      channels.flatMap((channel) => (byChannel.has(channel) ? [[channel, questionsOf(byChannel.get(channel)!, fixed)]] : [])),
    ),
    askedSince: askedSince(gaps, fixed),
    representative: representative?.question ?? '',
    examples: examplesOf(gaps),
    closestSources: [...sources.values()]
      .sort((a, b) => b.questions - a.questions || (b.score ?? -1) - (a.score ?? -1) || a.key.localeCompare(b.key))
      .slice(0, sourcesShown),
    firstAskedAt: gaps[0]?.askedAt ?? fixed!.addressedAt,
    lastAskedAt: gaps.at(-1)?.askedAt ?? fixed!.addressedAt,
  };
}

/** A cluster's questions on one channel (at least one, in the order asked). */
function questionsOf(gaps: readonly ClusterableGap[], fixed: FixedCentre | undefined): ChannelQuestions {
  const days: ChannelQuestions['days'] = {};
  for (const gap of gaps) {
    const day = (days[dayOf(Date.parse(gap.askedAt))] ??= [0, 0]);
    day[gap.reason === 'unknown' ? 0 : 1] += 1;
  }
  return {
    days,
    askedSince: askedSince(gaps, fixed),
    examples: examplesOf(gaps),
    firstAskedAt: gaps[0]!.askedAt,
    lastAskedAt: gaps.at(-1)!.askedAt,
  };
}

/** Questions asked after the cluster was marked addressed (0 when it is not). */
function askedSince(gaps: readonly ClusterableGap[], fixed: FixedCentre | undefined): number {
  return fixed ? gaps.filter((gap) => gap.askedAt > fixed.addressedAt).length : 0;
}

/** The latest different wordings, newest first (the gaps in the order asked). */
function examplesOf(gaps: readonly ClusterableGap[]): string[] {
  const examples: string[] = [];
  for (let i = gaps.length - 1; i >= 0 && examples.length < examplesShown; i--)
    if (!examples.includes(gaps[i]!.question)) examples.push(gaps[i]!.question);
  return examples;
}

/** The higher of two scores, where null (no score kept) gives way to any number. */
function higher(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}
