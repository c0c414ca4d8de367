import type { ItemIdentity } from '../ids.js';

/** What the ingestion workflows and activities exchange; plain data, serialisable as JSON. */

export const sourceTypes = ['PRODUCT', 'ARTICLE', 'SERVICE', 'PERSON', 'PAGE'] as const;
export type SourceType = (typeof sourceTypes)[number];

export type Priority = 'high' | 'low';

/**
 * Whose change an operation is: a person's (a single item sent, an article published or withdrawn),
 * which goes before any import's, or an import's (a bulk call, a sync, a cleanup).
 */
export type IngestLane = 'interactive' | 'bulk';

export interface ItemData {
  title: string;
  content: string;
  url?: string;
  metadata?: Record<string, unknown>;
  sourceData?: Record<string, unknown>;
  hash?: string;
}

export interface ItemOptions {
  forceRefresh?: boolean;
  priority?: Priority;
  metadataOnly?: boolean;
}

/** A new version of the item, as accepted by the API. */
export interface IngestOperation {
  kind: 'ingest';
  knowledgeBaseId: string;
  sourceType: SourceType;
  sourceOrigin: string | null;
  data: ItemData;
  options: ItemOptions;
  /** Absent on versions accepted before lanes: they were imports. */
  lane?: IngestLane;
  /**
   * The job's generation when the API accepted this version (absent on versions accepted before
   * generations existed): its activity writes the job's status only while no newer version was accepted.
   */
  jobGeneration?: number;
}

/**
 * The item is to go: a cleanup found it orphaned (and expects a `sourceDeletedSignal` on `replyTo`),
 * or its owner removed it (a help-centre article unpublished), with no one to answer.
 */
export interface DeleteOperation {
  kind: 'delete';
  knowledgeBaseId: string;
  sourceOrigin: string;
  replyTo?: string;
  /** Absent on deletions asked for before lanes: they were a cleanup's. */
  lane?: IngestLane;
}

/**
 * A re-index asks for the item's current version to be embedded again in the current embedder's
 * space, from its own chunks. It waits its turn behind the item's other operations and never
 * overtakes them; an ingestion that wrote the current space meanwhile makes it unnecessary.
 */
export interface ReembedOperation {
  kind: 'reembed';
  knowledgeBaseId: string;
}

export type ItemOperation = IngestOperation | DeleteOperation | ReembedOperation;

export interface SourceDeletion {
  sourceKey: string;
  externalId: string;
  deleted: boolean;
}

export interface OrphanedSource {
  sourceKey: string;
  integrationId: string;
  externalId: string;
  sourceType: string;
}

/**
 * A cleanup. Started since F16 with `cleanupId` (its keep list staged in Redis under it, and what it
 * deleted listed there); before, with the keep list itself and what earlier runs deleted.
 */
export interface CleanupInput {
  tenantId: string;
  knowledgeBaseId: string;
  sourceOrigin: string;
  /** Cleanups started before F16: the keep list itself. */
  keepExternalIds?: string[];
  /** Cleanups started before F16: what earlier runs (continued as new) already deleted. */
  deletedSoFar?: string[];
  /** The cleanup's id (`lib/knowledge/cleanup-lists.ts`): where its keep list is staged. */
  cleanupId?: string;
  /** Where the next run goes on: the listing's cursor, what was deleted so far and the list it is in. */
  resume?: { cursor: string; deleted: number; run: string };
}

export interface CleanupResult {
  deleted: number;
  /** Cleanups started before F16 carry the ids; later ones name the list they are in (`deletedList`). */
  orphanedExternalIds?: string[];
  /** The run whose list of deleted external ids (in Redis, under the cleanup's id) holds them. */
  deletedList?: string;
}

/** One page of a cleanup's orphans, and where the next page begins (none after the last). */
export interface OrphanPage {
  orphans: OrphanedSource[];
  cursor?: string;
}

/** A source a re-index asks to be embedded again. */
export interface SourceToReembed {
  sourceKey: string;
  integrationId: string;
  externalId: string;
  sourceType: string;
}

/** One page of a knowledge base's sources not in the current embedding space, and where the next begins. */
export interface ReembedPage {
  sources: SourceToReembed[];
  /** Absent after the last page. */
  cursor?: string;
}

/**
 * What a re-index of a knowledge base has done: `total` sources were in another embedding space
 * when it started (null until counted), `sent` re-embed requests went out (a source still waiting
 * when a later pass asks again counts again), `remaining` sources were still in another space at
 * the last count. It completes when none remain, or when some stayed put through every pass.
 */
export interface ReindexProgress {
  state: 'running' | 'completed';
  total: number | null;
  sent: number;
  remaining: number | null;
  startedAt: string;
  completedAt: string | null;
}

/** Where a re-index that continued as new goes on: its progress and its place in the current pass. */
export interface ReindexResume {
  progress: ReindexProgress;
  pass: number;
  phase: 'sending' | 'waiting';
  /** Sending: the listing's next page (absent at its start). */
  cursor?: string;
  /** Waiting: counts so far, and how many of them found no fewer sources left than the one before. */
  polls: number;
  stalledPolls: number;
}

export interface ReindexInput {
  tenantId: string;
  knowledgeBaseId: string;
  resume?: ReindexResume;
}

/**
 * The ingestion workflows' signatures, for their clients: `typeof` the workflow would bring its module, and with it the
 * activities' types, into the library that starts it.
 */
export type IngestItemWorkflow = (identity: ItemIdentity, carried?: ItemOperation[]) => Promise<void>;
export type CleanupWorkflow = (input: CleanupInput) => Promise<CleanupResult>;
export type ReindexKnowledgeBaseWorkflow = (input: ReindexInput) => Promise<ReindexProgress>;
