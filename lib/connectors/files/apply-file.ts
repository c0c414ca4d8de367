import type { IngestionClient, SyncItem } from '#connector-sdk/index.js';
import { DocumentError } from '../documents/errors.js';
import type { ExtractOptions } from '../documents/extract.js';
import type { DocumentLimits } from '../documents/limits.js';
import type { ExtractedDocument } from '../documents/types.js';
import type { FilesConnector } from '../records.js';
import { sectionItems } from '../section-items.js';
import { sendItems } from '../send-items.js';
import type { SyncState } from '../sync-state.js';
import { fileOrigin, type FileRecords, type UploadedFile } from './file-records.js';
import type { UploadStaging } from './staging.js';

export interface FileChangeOptions {
  connector: Pick<FilesConnector, 'id' | 'integrationId' | 'knowledgeBaseId'>;
  fileId: string;
  files: FileRecords;
  staging: Pick<UploadStaging, 'read' | 'discard'>;
  syncState: Pick<SyncState, 'fingerprints' | 'saveFingerprints' | 'noteSent' | 'noteUnchanged' | 'forget'>;
  client: Pick<IngestionClient, 'ingestAll' | 'ingest' | 'cleanup'>;
  readDocument(bytes: Uint8Array, options: ExtractOptions): Promise<ExtractedDocument>;
  documentLimits: DocumentLimits;
  /** Told after each batch of items sent (an activity's heartbeat). */
  progress?: () => void;
  now?: () => Date;
}

/** What a round of a file's workflow did, for its announcement: the file as left, and its items sent and deleted. */
export type FileChange =
  | { did: 'nothing' }
  | { did: 'ingested'; file: UploadedFile; sent: number; unchanged: number; deleted: number }
  | { did: 'refused'; file: UploadedFile }
  | { did: 'removed'; file: UploadedFile; deleted: number };

/**
 * Does what a file's record asks, once: takes a file marked for removal out of the knowledge base (a
 * cleanup of its origin that keeps nothing) and forgets it; reads a queued upload, sends one item per
 * section (per page of a PDF) through the ingestion API, and cleans up what the version before had
 * and this one has not. A file the reader refuses (encrypted, corrupt, no text, over a limit, a type
 * that lies) is recorded as failed with the reader's words, and the version before stays. Every step
 * is repeatable: a round repeated after a worker died sends nothing twice (the connector's fingerprints)
 * and deletes only what the latest version does not have.
 */
export async function applyFileChange(options: FileChangeOptions): Promise<FileChange> {
  const { connector, fileId, files, staging } = options;
  const now = () => (options.now ?? (() => new Date()))().toISOString();
  const file = await files.get(connector.id, fileId);
  if (!file) return { did: 'nothing' };
  const origin = fileOrigin(connector.integrationId, file.id);
  if (file.status === 'removing') {
    const cleanup = await options.client.cleanup({ knowledgeBaseId: connector.knowledgeBaseId, sourceOrigin: origin, keepExternalIds: [] });
    await options.syncState.forget(connector.id, cleanup.orphanedExternalIds);
    if (file.stagingId) await staging.discard(connector.id, file.stagingId);
    await files.forget(connector.id, file.id);
    return { did: 'removed', file, deleted: cleanup.deleted };
  }
  if ((file.status !== 'queued' && file.status !== 'reading') || !file.stagingId) return { did: 'nothing' };
  const { sha256, stagingId } = file;
  const stillLatest = (latest: UploadedFile) => latest.sha256 === sha256 && latest.status !== 'removing';
  await files.update(connector.id, fileId, (latest) =>
    stillLatest(latest) && latest.status === 'queued' ? { ...latest, status: 'reading' } : undefined,
  );

  let document: ExtractedDocument;
  try {
    const bytes = await staging.read(connector.id, stagingId);
    if (!bytes) throw new DocumentError('corrupt', `The upload of ${file.name} is no longer staged (it waited more than a week): upload it again.`);
    document = await options.readDocument(bytes, {
      name: file.name,
      ...(file.contentType ? { contentType: file.contentType } : {}),
      limits: options.documentLimits,
    });
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    const refused = await files.update(connector.id, fileId, (latest) =>
      stillLatest(latest)
        ? { ...withoutStaging(latest), status: 'failed', error: { code: error.code, message: error.message, at: now() } }
        : undefined,
    );
    await staging.discard(connector.id, stagingId);
    return refused && refused.sha256 === sha256 ? { did: 'refused', file: refused } : { did: 'nothing' };
  }

  const items = fileItems(file, document);
  const sent = await sendItems({
    client: options.client,
    state: options.syncState,
    connector: { ...connector, sourceOrigin: origin },
    items,
    priority: 'low',
    ...(options.progress ? { onBatch: options.progress } : {}),
  });
  const keep = items.map((item) => item.externalId);
  const cleanup = await options.client.cleanup({ knowledgeBaseId: connector.knowledgeBaseId, sourceOrigin: origin, keepExternalIds: keep });
  await options.syncState.forget(connector.id, cleanup.orphanedExternalIds);
  const ingested = {
    sha256,
    kind: document.kind,
    items: items.length,
    ...(document.pages === undefined ? {} : { pages: document.pages }),
    ingestedAt: now(),
  };
  const left = await files.update(connector.id, fileId, (latest) => {
    if (latest.status === 'removing') return undefined;
    if (!stillLatest(latest)) return { ...latest, ingested };
    const { error: _error, ...rest } = withoutStaging(latest);
    return { ...rest, status: 'ingested', ingested };
  });
  await staging.discard(connector.id, stagingId);
  if (!left) return { did: 'nothing' };
  return { did: 'ingested', file: left, sent, unchanged: items.length - sent, deleted: cleanup.deleted };
}

/**
 * A file's items: one per section (per page of a PDF), known by the file's id with the section's
 * fragment, and cited by the file's name, whatever title its metadata claims ("Microsoft Word - draft3").
 */
export function fileItems(file: Pick<UploadedFile, 'id' | 'name'>, document: ExtractedDocument): SyncItem[] {
  return sectionItems(
    { ...document, title: file.name },
    { id: file.id, fallbackTitle: file.name, sourceData: { file: file.name, kind: document.kind } },
  );
}

function withoutStaging(file: UploadedFile): UploadedFile {
  const { stagingId: _stagingId, ...rest } = file;
  return rest;
}
