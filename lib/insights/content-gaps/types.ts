import type { Channel } from '#workflows/conversations/types.js';
import type { Locale } from '#workflows/locales.js';

/** Why a question is a gap: the AI said it did not know, or its answer was rated down. */
export type GapReason = 'unknown' | 'rated_down';

/** A source that came close to answering: key `<knowledgeBaseId>/<externalId>`, its cosine similarity as `score`. */
export interface ClosestSource {
  key: string;
  title: string;
  /** Its similarity to the question; null for a source an answer rated down cited (a message keeps no score). */
  score: number | null;
}

/** Whose gaps: an operator of a tenant. */
export interface GapOwner {
  tenantId: string;
  operatorId: string;
}

/** What the recorder is handed (docs/insights.md, "Where the pieces meet"). */
export interface GapInput extends GapOwner {
  knowledgeBaseId: string;
  conversationId: string;
  /** The AI answer's message id (an unknown's reply, or the answer rated down). */
  messageId: string;
  question: string;
  locale: Locale;
  channel: Channel;
  reason: GapReason;
  closestSources: ClosestSource[];
}

/** A stored gap: the question, when and where it was asked, and its vector (base64 little-endian Float32, unit length). */
export interface Gap {
  id: string;
  question: string;
  askedAt: string;
  knowledgeBaseId: string;
  conversationId: string;
  messageId: string;
  locale: Locale;
  channel: Channel;
  reason: GapReason;
  closestSources: ClosestSource[];
  /** `<provider>/<model>/<dimensions>`: vectors of other spaces are never compared. */
  space: string;
  vector: string;
}

/** An owner's mark on a cluster: what was written to fill the gap, and the cluster's centre and members then. */
export interface AddressedMark {
  clusterId: string;
  articleId: string | null;
  sourceKey: string | null;
  note: string | null;
  addressedAt: string;
  by: { userId: string; name: string };
  /** The cluster's centre when marked (base64 Float32): new close questions join it. */
  centre: string;
  space: string;
  /** Its members when marked: they stay in it. */
  members: string[];
}

/** Questions of a cluster per UTC day: `[unknown, ratedDown]`. */
export type DayCounts = Record<string, [number, number]>;

/** A cluster's questions on one channel: counted by day, its latest wordings, its first and last. */
export interface ChannelQuestions {
  days: DayCounts;
  /** Its questions on the channel asked after the addressed mark (0 when not addressed). */
  askedSince: number;
  /** Up to five different wordings asked on the channel, latest first. */
  examples: string[];
  firstAskedAt: string;
  lastAskedAt: string;
}

/**
 * A cluster as the clustering stores it: counts by day and channel, so any range and channel count
 * only theirs. A result stored before the channels were kept has `days` instead of `channels`: its
 * counts are of no known channel, and only a read of every channel counts them (the next
 * clustering, which any new gap or mark brings, rewrites the result with channels).
 */
export interface StoredCluster {
  id: string;
  /** The channels it was asked on (absent in a result stored before the channels were kept). */
  channels?: Partial<Record<Channel, ChannelQuestions>>;
  /** Only in a result stored before the channels were kept: its questions per day, channel unknown. */
  days?: DayCounts;
  /** Questions asked after the addressed mark, on every channel (0 when not addressed). */
  askedSince: number;
  representative: string;
  /** Up to five different wordings, latest first, on every channel. */
  examples: string[];
  /** The sources that came closest, with the best score and how many of its questions they came close for. */
  closestSources: (ClosestSource & { questions: number })[];
  firstAskedAt: string;
  lastAskedAt: string;
}

/** One clustering's result, stored under one key. */
export interface ClusterResults {
  clusteredAt: string;
  /** Gaps the clustering covered. */
  covered: number;
  /** The recording sequence it covered up to: gaps recorded later are pending. */
  coveredSeq: number;
  clusters: StoredCluster[];
}

/** What is kept of each cluster beside the results, for marking it addressed: its centre and members. */
export interface ClusterDetail {
  centre: string;
  members: string[];
}
