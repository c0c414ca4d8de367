import { sourceKeyOf, type ItemIdentity } from '#workflows/ids.js';
import type { ChunkIndex } from './chunk-index.js';
import type { Embedder, Lane } from './embeddings/index.js';
import { ItemRejectedError } from './item-failures.js';
import { isEmbeddedIn, type SourceRecord, type SourceStore } from './sources.js';
import { chunkText } from './text/chunk.js';

export interface SourceWriterDeps {
  sources: SourceStore;
  chunkIndex: ChunkIndex;
  embedder: Embedder;
  now: () => Date;
}

/** A version of a source to write: its normalised text, where it belongs, and the metadata its record keeps. */
export interface SourceVersion {
  identity: ItemIdentity;
  knowledgeBaseId: string;
  /** Names this version's chunks; the same on every retry of the activity writing it. */
  generation: string;
  sourceType: string;
  /** '' when the item has no origin tag. */
  sourceOrigin: string;
  title: string;
  body: string;
  fields: Pick<SourceRecord, 'url' | 'metadata' | 'sourceData' | 'hash'>;
  /** Whose change it is: a person's (`interactive`) is embedded before an import's chunks. */
  lane: Lane;
}

/**
 * The steps a new version of a source goes through, whether an ingestion sent it or a re-index
 * rebuilt it from its chunks: chunk and embed it in the current embedder's space, write its chunks
 * under a new generation, switch the source record to that generation in one write, then delete what
 * it replaced, so a search never mixes the two.
 */
export function createSourceWriter({ sources, chunkIndex, embedder, now }: SourceWriterDeps) {
  async function write(version: SourceVersion, previous: SourceRecord | undefined): Promise<void> {
    const { identity, knowledgeBaseId, generation, title } = version;
    const sourceKey = sourceKeyOf(identity);
    const chunks = chunkText(title, version.body, { tokenWindow: embedder.tokenWindow });
    if (chunks.every((chunk) => chunk.embedText === '')) {
      throw new ItemRejectedError(
        'empty_item',
        'The item has no text once its markup is removed: send a title or content with words in it.',
      );
    }
    // One model run per chunk. Its sentences' vectors, which the answerer compares, are embedded when
    // an answer first reads the chunk, and kept on it then (lib/answering/sentence-memory.ts): most
    // chunks never answer a question.
    const vectors = await embedder.embed(
      chunks.map((chunk) => chunk.embedText),
      { lane: version.lane },
    );
    // What every chunk of this version carries, and the source record too.
    const description = {
      generation,
      integrationId: identity.integrationId,
      externalId: identity.externalId,
      sourceType: version.sourceType,
      sourceOrigin: version.sourceOrigin,
      title,
      embeddingProvider: embedder.space.provider,
      embeddingModel: embedder.space.model,
    };
    await chunkIndex.insertGeneration(
      knowledgeBaseId,
      { sourceKey, ...description },
      chunks.map((chunk, i) => ({
        index: chunk.index,
        text: chunk.text,
        vector: vectors[i]!,
      })),
    );

    const record: SourceRecord = {
      ...description,
      embeddingDimensions: embedder.space.dimensions,
      knowledgeBaseId,
      ...version.fields,
      chunkCount: chunks.length,
      updatedAt: now().toISOString(),
    };
    await sources.commit(identity.tenantId, sourceKey, record, previous);

    // A new item has no older chunks. A moved one leaves all of its chunks behind in the old
    // knowledge base; an updated one leaves its older generations; one embedded anew leaves its
    // chunks in the space it was in.
    if (!previous) return;
    if (previous.knowledgeBaseId !== knowledgeBaseId) await chunkIndex.deleteSourceChunks(previous.knowledgeBaseId, sourceKey);
    await chunkIndex.deleteSourceChunks(knowledgeBaseId, sourceKey, generation);
    if (!isEmbeddedIn(previous, embedder.space)) {
      await chunkIndex.deleteSourceChunksInOtherSpaces(previous.knowledgeBaseId, sourceKey);
    }
  }

  /**
   * A retry after the version was already committed: what it replaced may be left to delete, in
   * this space (older generations) and in any other (what it had before a re-embedding).
   */
  async function finishCommitted(knowledgeBaseId: string, sourceKey: string, generation: string): Promise<void> {
    await chunkIndex.deleteSourceChunks(knowledgeBaseId, sourceKey, generation);
    await chunkIndex.deleteSourceChunksInOtherSpaces(knowledgeBaseId, sourceKey);
  }

  return { write, finishCommitted };
}

export type SourceWriter = ReturnType<typeof createSourceWriter>;
