import type { ChunkIndex } from '#knowledge/chunk-index.js';
import type { JobStatus, JobStore } from '#knowledge/jobs.js';
import type { SourceRecord, SourceStore } from '#knowledge/sources.js';
import { jobIdOf, sourceKeyOf, type ItemIdentity } from '#workflows/ids.js';
import type { IngestOperation } from '#workflows/ingestion/types.js';
import type { Embedder } from '#knowledge/embeddings/index.js';
import { withHeartbeats } from '../heartbeats.js';
import { chunkText } from '#knowledge/text/chunk.js';
import { normalizeText, normalizeTitle } from '#knowledge/text/normalize.js';
import { ItemRejectedError, nonRetryable, permanentFailure } from './failures.js';

export interface IngestionDeps {
  jobs: JobStore;
  sources: SourceStore;
  chunkIndex: ChunkIndex;
  embedder: Embedder;
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

export function createIngestionActivities({ jobs, sources, chunkIndex, embedder, now = () => new Date() }: IngestionDeps) {
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
    await jobs.set(identity.tenantId, jobId, { status: 'processing', knowledgeBaseId });
    try {
      const status = await applyVersion(identity, operation, generation);
      await jobs.set(identity.tenantId, jobId, { status, knowledgeBaseId });
      return status;
    } catch (error) {
      const failure = permanentFailure(error);
      if (!failure) throw error;
      await jobs.set(identity.tenantId, jobId, { status: 'failed', knowledgeBaseId, error: failure });
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

    // A retry after this version was already committed: only the old chunks may be left to delete.
    if (previous?.generation === generation) {
      await chunkIndex.deleteSourceChunks(knowledgeBaseId, sourceKey, generation);
      return 'searchable';
    }
    if (data.hash && previous?.hash === data.hash && !options.forceRefresh && previous.knowledgeBaseId === knowledgeBaseId) {
      return 'skipped';
    }

    const title = normalizeTitle(data.title);
    const chunks = chunkText(title, normalizeText(data.content), { tokenWindow: embedder.tokenWindow });
    if (chunks.every((chunk) => chunk.embedText === '')) {
      throw new ItemRejectedError(
        'empty_item',
        'The item has no text once its markup is removed: send a title or content with words in it.',
      );
    }
    const vectors = await embedder.embed(chunks.map((chunk) => chunk.embedText));
    // What every chunk of this version carries, and the source record too.
    const description = {
      generation,
      integrationId: identity.integrationId,
      externalId: identity.externalId,
      sourceType: operation.sourceType,
      sourceOrigin: operation.sourceOrigin ?? '',
      title,
      embeddingProvider: embedder.space.provider,
      embeddingModel: embedder.space.model,
    };
    await chunkIndex.insertGeneration(
      knowledgeBaseId,
      { sourceKey, ...description },
      chunks.map((chunk, i) => ({ index: chunk.index, text: chunk.text, vector: vectors[i]! })),
    );

    const record: SourceRecord = {
      ...description,
      knowledgeBaseId,
      url: data.url ?? null,
      metadata: data.metadata ?? null,
      sourceData: data.sourceData ?? null,
      hash: data.hash ?? null,
      chunkCount: chunks.length,
      updatedAt: now().toISOString(),
    };
    await sources.commit(tenantId, sourceKey, record, previous);

    // A new item has no older chunks. A moved one leaves all of its chunks behind in the old
    // knowledge base; an updated one leaves its older generations.
    if (previous && previous.knowledgeBaseId !== knowledgeBaseId) {
      await chunkIndex.deleteSourceChunks(previous.knowledgeBaseId, sourceKey);
    }
    if (previous) await chunkIndex.deleteSourceChunks(knowledgeBaseId, sourceKey, generation);
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
    const record = await sources.get(identity.tenantId, sourceKey);
    if (!record || record.knowledgeBaseId !== knowledgeBaseId || record.sourceOrigin !== input.sourceOrigin) return false;

    await chunkIndex.deleteSourceChunks(knowledgeBaseId, sourceKey);
    await jobs.set(identity.tenantId, jobIdOf(identity), { status: 'deleted', knowledgeBaseId });
    await sources.remove(identity.tenantId, sourceKey, record);
    return true;
  }

  async function recordIngestFailure(input: {
    identity: ItemIdentity;
    knowledgeBaseId: string;
    error: { code: string; message: string };
  }) {
    await jobs.set(input.identity.tenantId, jobIdOf(input.identity), {
      status: 'failed',
      knowledgeBaseId: input.knowledgeBaseId,
      error: input.error,
    });
  }

  return { ingestSource, deleteSource, recordIngestFailure };
}
