/** What the ingestion workflows and activities exchange; plain data, serialisable as JSON. */

export const sourceTypes = ['PRODUCT', 'ARTICLE', 'SERVICE', 'PERSON', 'PAGE'] as const;
export type SourceType = (typeof sourceTypes)[number];

export type Priority = 'high' | 'low';

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
}

export type ItemOperation = IngestOperation | DeleteOperation;

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

export interface CleanupInput {
  tenantId: string;
  knowledgeBaseId: string;
  sourceOrigin: string;
  keepExternalIds: string[];
  /** What earlier runs of a long cleanup (continued as new) already deleted. */
  deletedSoFar?: string[];
}

export interface CleanupResult {
  deleted: number;
  orphanedExternalIds: string[];
}
