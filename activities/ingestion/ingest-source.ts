import type { JobStatus, JobStore } from '#knowledge/jobs.js';
import { isEmbeddedIn } from '#knowledge/sources.js';
import { jobIdOf, sourceKeyOf, type ItemIdentity } from '#workflows/ids.js';
import type { IngestOperation } from '#workflows/ingestion/types.js';
import { withHeartbeats } from '../heartbeats.js';
import { normalizeText, normalizeTitle } from '#knowledge/text/normalize.js';
import { ItemRejectedError, permanentFailure } from '#knowledge/item-failures.js';
import { nonRetryable } from './failures.js';
import { createSourceWriter, type SourceWriterDeps } from '#knowledge/source-writer.js';
import type { EventEmitter } from '#outbound-events/emitter.js';
import { ingestionFailed } from '#outbound-events/facts.js';

export interface IngestionDeps extends Omit<SourceWriterDeps, 'now'> {
  jobs: JobStore;
  /** Tells the tenant's event endpoints of a version that failed for good (`ingestion.failed`). */
  outboundEvents?: Pick<EventEmitter, 'emit'>;
  now?: () => Date;
}

export interface IngestSourceInput {
  identity: ItemIdentity;
  operation: IngestOperation;
  /** Names this version's chunks; the workflow passes the same one on every retry. */
  generation: string;
}

export interface DeleteSourceInput {
  identity: ItemIdentity;
  knowledgeBaseId: string;
  sourceOrigin: string;
}

export function createIngestionActivities({ jobs, outboundEvents, now = () => new Date(), ...deps }: IngestionDeps) {
  const { sources, chunkIndex, embedder } = deps;
  const writer = createSourceWriter({ ...deps, now });

  /**
   * Applies one version of an item: normalize, chunk, embed and index it, then switch the source to
   * the new chunks in one Redis write and delete the old ones, so a search never mixes the two. The
   * hash rule, `forceRefresh` and `metadataOnly` decide how much of that is needed. Safe to retry.
   */
  function ingestSource(input: IngestSourceInput): Promise<JobStatus> {
    return withHeartbeats(() => ingestVersion(input));
  }

  async function ingestVersion({ identity, operation, generation }: IngestSourceInput): Promise<JobStatus> {
    const jobId = jobIdOf(identity);
    const knowledgeBaseId = operation.knowledgeBaseId;
    // Written only while no newer version of the item was accepted (its job is `queued` again).
    const { jobGeneration } = operation;
    await jobs.set(identity.tenantId, jobId, { status: 'processing', knowledgeBaseId }, jobGeneration);
    try {
      const status = await applyVersion(identity, operation, generation);
      await jobs.set(identity.tenantId, jobId, { status, knowledgeBaseId }, jobGeneration);
      return status;
    } catch (error) {
      const failure = permanentFailure(error);
      if (!failure) throw error;
      await jobs.set(identity.tenantId, jobId, { status: 'failed', knowledgeBaseId, error: failure }, jobGeneration);
      await announceFailure(identity, knowledgeBaseId, generation, failure);
      throw nonRetryable(failure, error);
    }
  }

  async function applyVersion(identity: ItemIdentity, operation: IngestOperation, generation: string): Promise<JobStatus> {
    const { tenantId } = identity;
    const { data, options, knowledgeBaseId } = operation;
    const sourceKey = sourceKeyOf(identity);
    const previous = await sources.get(tenantId, sourceKey);

    if (options.metadataOnly) {
      if (previous?.knowledgeBaseId !== knowledgeBaseId) {
        throw new ItemRejectedError(
          'not_indexed',
          'metadataOnly updates an item already in this knowledge base: send it once without metadataOnly first.',
        );
      }
      const metadata = { url: data.url ?? null, metadata: data.metadata ?? null, sourceData: data.sourceData ?? null };
      await sources.updateMetadata(tenantId, sourceKey, metadata, now().toISOString());
      return 'metadata_updated';
    }

    // A retry after this version was already committed: only what it replaced may be left to delete.
    if (previous?.generation === generation) {
      await writer.finishCommitted(knowledgeBaseId, sourceKey, generation);
      return 'searchable';
    }
    if (data.hash && previous?.hash === data.hash && !options.forceRefresh && previous.knowledgeBaseId === knowledgeBaseId) {
      return 'skipped';
    }

    const version = {
      identity,
      knowledgeBaseId,
      generation,
      sourceType: operation.sourceType,
      sourceOrigin: operation.sourceOrigin ?? '',
      title: normalizeTitle(data.title),
      body: normalizeText(data.content),
      fields: {
        url: data.url ?? null,
        metadata: data.metadata ?? null,
        sourceData: data.sourceData ?? null,
        hash: data.hash ?? null,
      },
      lane: operation.lane ?? 'bulk',
    };
    await writer.write(version, previous);
    return 'searchable';
  }

  /**
   * Deletes a source a cleanup found orphaned, unless it has since moved or changed origin. Chunks
   * go first, then the job status, then the record: a retry at any point finishes the work.
   */
  function deleteSource(input: DeleteSourceInput): Promise<boolean> {
    return withHeartbeats(() => deleteIfStillOrphaned(input));
  }

  async function deleteIfStillOrphaned(input: DeleteSourceInput): Promise<boolean> {
    const { identity, knowledgeBaseId } = input;
    const sourceKey = sourceKeyOf(identity);
    // A version accepted while this deletes must not be shown as deleted: it is queued after it.
    const jobGeneration = await jobs.generation(identity.tenantId, jobIdOf(identity));
    const record = await sources.get(identity.tenantId, sourceKey);
    if (!record || record.knowledgeBaseId !== knowledgeBaseId || record.sourceOrigin !== input.sourceOrigin) return false;

    await chunkIndex.deleteSourceChunks(knowledgeBaseId, sourceKey);
    // A source not yet re-embedded has its chunks in the space it was embedded in.
    if (!isEmbeddedIn(record, embedder.space)) await chunkIndex.deleteSourceChunksInOtherSpaces(knowledgeBaseId, sourceKey);
    await jobs.set(identity.tenantId, jobIdOf(identity), { status: 'deleted', knowledgeBaseId }, jobGeneration);
    await sources.remove(identity.tenantId, sourceKey, record);
    return true;
  }

  async function recordIngestFailure(input: {
    identity: ItemIdentity;
    knowledgeBaseId: string;
    error: { code: string; message: string };
    jobGeneration?: number;
  }) {
    await jobs.set(
      input.identity.tenantId,
      jobIdOf(input.identity),
      { status: 'failed', knowledgeBaseId: input.knowledgeBaseId, error: input.error },
      input.jobGeneration,
    );
    await announceFailure(input.identity, input.knowledgeBaseId, `timeout-${input.jobGeneration ?? 0}`, input.error);
  }

  /** `ingestion.failed`, once the job records it; `version` names the failed version (the same on a retry). */
  async function announceFailure(
    identity: ItemIdentity,
    knowledgeBaseId: string,
    version: string,
    error: { code: string; message: string },
  ): Promise<void> {
    if (!outboundEvents) return;
    const { tenantId, integrationId, externalId } = identity;
    await outboundEvents.emit(
      tenantId,
      ingestionFailed({ jobId: jobIdOf(identity), integrationId, externalId, knowledgeBaseId, version, error }),
    );
  }

  return { ingestSource, deleteSource, recordIngestFailure };
}
