import { log } from '@temporalio/activity';
import { collectionName } from '#knowledge/chunk-index.js';
import { isEmbeddedIn, type SourceRecord } from '#knowledge/sources.js';
import { rebuildBody } from '#knowledge/text/rebuild.js';
import { sourceKeyOf, type ItemIdentity } from '#workflows/ids.js';
import { withHeartbeats } from '../heartbeats.js';
import { ItemRejectedError, permanentFailure } from '#knowledge/item-failures.js';
import { nonRetryable } from './failures.js';
import { createSourceWriter, type SourceWriterDeps } from '#knowledge/source-writer.js';

export type ReembedDeps = Omit<SourceWriterDeps, 'now'> & { now?: () => Date };

export interface ReembedSourceInput {
  identity: ItemIdentity;
  knowledgeBaseId: string;
  /** Names the new chunks; the workflow passes the same one on every retry. */
  generation: string;
}

export function createReembedActivities({ now = () => new Date(), ...deps }: ReembedDeps) {
  const { sources, chunkIndex, embedder } = deps;
  const writer = createSourceWriter({ ...deps, now });

  /**
   * Embeds a source's current version again in the current embedder's space, from its own chunks
   * (its owner is not asked to send it again): the body is rebuilt from the chunks in the space it
   * was embedded in, then written as a new version with the same title, hash and metadata, and its
   * chunks in the old space are deleted. Nothing happens to a source that is gone, has moved to
   * another knowledge base or is in the current space already. The job status is left alone: the
   * item stays searchable on its old chunks until the record switches. Safe to retry. True when it
   * re-embedded the source.
   */
  function reembedSource(input: ReembedSourceInput): Promise<boolean> {
    return withHeartbeats(async () => {
      try {
        return await reembed(input);
      } catch (error) {
        const failure = permanentFailure(error);
        if (!failure) throw error;
        log.warn('the source cannot be re-embedded', { ...input.identity, ...failure });
        throw nonRetryable(failure, error);
      }
    });
  }

  async function reembed({ identity, knowledgeBaseId, generation }: ReembedSourceInput): Promise<boolean> {
    const sourceKey = sourceKeyOf(identity);
    const record = await sources.get(identity.tenantId, sourceKey);
    if (!record || record.knowledgeBaseId !== knowledgeBaseId) return false;
    // A retry after this version was already committed: only the chunks it replaced may be left.
    if (record.generation === generation) {
      await writer.finishCommitted(knowledgeBaseId, sourceKey, generation);
      return true;
    }
    if (isEmbeddedIn(record, embedder.space)) return false;

    const texts = await currentChunkTexts(record, sourceKey);
    const version = {
      identity,
      knowledgeBaseId,
      generation,
      sourceType: record.sourceType,
      sourceOrigin: record.sourceOrigin,
      title: record.title,
      body: rebuildBody(texts),
      fields: { url: record.url, metadata: record.metadata, sourceData: record.sourceData, hash: record.hash },
      lane: 'bulk' as const,
    };
    await writer.write(version, record);
    return true;
  }

  /**
   * The texts of the record's current chunks, from the collection of the space it was embedded in:
   * named by its provider, model and dimensions, or for an older record (no dimensions recorded) the
   * one of its provider and model that holds them.
   */
  async function currentChunkTexts(record: SourceRecord, sourceKey: string): Promise<string[]> {
    const space = { provider: record.embeddingProvider, model: record.embeddingModel };
    const candidates =
      record.embeddingDimensions === undefined
        ? await chunkIndex.otherCollectionsOf(space)
        : [collectionName({ ...space, dimensions: record.embeddingDimensions })];
    for (const collection of candidates) {
      const texts = await chunkIndex.readSourceChunks(collection, record.knowledgeBaseId, sourceKey, record.generation);
      if (texts.length === 0) continue;
      if (texts.length !== record.chunkCount) {
        throw new ItemRejectedError(
          'chunks_incomplete',
          `Only ${texts.length} of the item's ${record.chunkCount} chunks are in the search index: send the item again.`,
        );
      }
      return texts;
    }
    throw new ItemRejectedError('chunks_missing', "The item's chunks are not in the search index: send the item again.");
  }

  return { reembedSource };
}
