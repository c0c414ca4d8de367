import weaviate, { Filters, generateUuid5, type Collection, type WeaviateClient } from 'weaviate-client';
import type { EmbeddingSpace } from './embeddings/index.js';
import pLimit from 'p-limit';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { decodeSentenceVectors, encodeSentenceVectors, SentenceVectors } from './sentence-vectors.js';

/** Chunk writes of one source in flight at once. */
const insertConcurrency = 16;

/** What a chunk says about its source; the mutable metadata (url, metadata, sourceData) lives in Redis. */
export type ChunkProperties = {
  sourceKey: string;
  generation: string;
  integrationId: string;
  externalId: string;
  sourceType: string;
  sourceOrigin: string;
  title: string;
  text: string;
  chunkIndex: number;
  embeddingProvider: string;
  embeddingModel: string;
};

/** What Weaviate keeps of a chunk: its properties, and its sentences' vectors (sentence-vectors.ts), read apart. */
type StoredChunk = ChunkProperties & { sentenceVectors?: string };

export interface ChunkToIndex {
  index: number;
  text: string;
  vector: number[];
}

/** How hybrid search fuses its keyword and vector halves. */
export interface HybridRanking {
  /** Weight of the vector half, from 0 (keywords only) to 1 (meaning only). */
  alpha: number;
  fusion: 'Ranked' | 'RelativeScore';
}

/**
 * Chosen on the evaluation set's tuning questions with the default model (`npm run eval:tune`,
 * docs/answering.md). The other embedders are ranked the same way.
 */
export const defaultRanking: HybridRanking = { alpha: 0.8, fusion: 'RelativeScore' };

export interface ChunkHit {
  /** The chunk's Weaviate object id. */
  id: string;
  properties: ChunkProperties;
  score: number;
  /** The chunk's vector, when asked for. */
  vector?: number[];
}

/**
 * One collection per embedding space: vectors of different models are never compared, and after a
 * model change items re-ingested with `forceRefresh` fill the new collection.
 * Weaviate collection names: a capital first letter, then letters, digits and underscores.
 */
export function collectionName(space: EmbeddingSpace): string {
  return `${modelPrefix(space)}${space.dimensions}`;
}

/** What the names of a provider and model's collections start with, whatever their dimensions. */
function modelPrefix({ provider, model }: Pick<EmbeddingSpace, 'provider' | 'model'>): string {
  return `${chunkCollectionPrefix}${`${provider}_${model}`.replace(/[^A-Za-z0-9]+/g, '_')}_`;
}

const chunkCollectionPrefix = 'KbChunk_';

/** The largest page Weaviate answers by default (QUERY_MAXIMUM_RESULTS); an item has far fewer chunks. */
const maxChunksPerSource = 10_000;

/**
 * The chunks of every knowledge base, in one Weaviate collection per embedding space, with one
 * Weaviate tenant per knowledge base: knowledge bases never see each other's chunks and one can be
 * dropped whole. The collection is created on first use (idempotently, so every process may try).
 */
export function createChunkIndex(client: WeaviateClient, space: EmbeddingSpace) {
  const name = collectionName(space);
  let ready: Promise<Collection<StoredChunk>> | undefined;

  function collection(): Promise<Collection<StoredChunk>> {
    ready ??= ensureCollection(client, name).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  async function tenant(knowledgeBaseId: string) {
    return (await collection()).withTenant(knowledgeBaseId);
  }

  /** The chunk collections of every other embedding space. */
  async function otherChunkCollections(): Promise<string[]> {
    return (await client.collections.listAll())
      .map((collection) => collection.name)
      .filter((other) => other !== name && other.startsWith(chunkCollectionPrefix));
  }

  return tagUnavailable('weaviate', {
    space,
    name,
    collection,

    /**
     * Writes one generation of a source's chunks. Object ids derive from the source, generation and
     * position, so a retried write overwrites rather than duplicates. A partial failure is an error.
     */
    async insertGeneration(
      knowledgeBaseId: string,
      source: Omit<ChunkProperties, 'text' | 'chunkIndex'>,
      chunks: ChunkToIndex[],
    ) {
      const chunksOfKb = await tenant(knowledgeBaseId);
      const limit = pLimit(insertConcurrency);
      // One object per batch call: weaviate-client 3.12 serialises a batch of several objects across
      // timer ticks and polls for the result every 500 ms, so any batch of two or more takes half a
      // second; batches of one return in milliseconds.
      const results = await Promise.all(
        chunks.map((chunk) =>
          limit(() =>
            chunksOfKb.data.insertMany([
              {
                id: generateUuid5(`${source.sourceKey}|${source.generation}|${chunk.index}`),
                // Its sentences' vectors come when an answer first reads it (`keepSentenceVectors`).
                properties: { ...source, text: chunk.text, chunkIndex: chunk.index },
                vectors: chunk.vector,
              },
            ]),
          ),
        ),
      );
      const refused = results.flatMap((result) => Object.values(result.errors));
      if (refused.length > 0)
        throw new Error(`Weaviate refused ${refused.length} of ${chunks.length} chunks: ${refused[0]?.message}`);
    },

    /** Deletes a source's chunks of every generation but `keepGeneration` (all of them when absent). */
    async deleteSourceChunks(knowledgeBaseId: string, sourceKey: string, keepGeneration?: string): Promise<void> {
      const chunksOfKb = await tenant(knowledgeBaseId);
      const bySource = chunksOfKb.filter.byProperty('sourceKey').equal(sourceKey);
      const filter = keepGeneration
        ? Filters.and(bySource, chunksOfKb.filter.byProperty('generation').notEqual(keepGeneration))
        : bySource;
      await chunksOfKb.data.deleteMany(filter).catch(unlessNoTenant(undefined));
    },

    /**
     * The chunk collections of a provider and model, of any dimensions, this index's own left out:
     * where a source embedded in an older space may have its chunks.
     */
    async otherCollectionsOf(space: Pick<EmbeddingSpace, 'provider' | 'model'>): Promise<string[]> {
      const prefix = modelPrefix(space);
      return (await otherChunkCollections())
        .filter((other) => other.startsWith(prefix) && /^\d+$/.test(other.slice(prefix.length)))
        .sort();
    },

    /** The texts of one generation of a source's chunks in the named collection, in chunk order; none when it has none there. */
    async readSourceChunks(
      collection: string,
      knowledgeBaseId: string,
      sourceKey: string,
      generation: string,
    ): Promise<string[]> {
      const chunksOfKb = client.collections.get<ChunkProperties>(collection).withTenant(knowledgeBaseId);
      const result = await chunksOfKb.query
        .fetchObjects({
          filters: Filters.and(
            chunksOfKb.filter.byProperty('sourceKey').equal(sourceKey),
            chunksOfKb.filter.byProperty('generation').equal(generation),
          ),
          returnProperties: ['text', 'chunkIndex'],
          limit: maxChunksPerSource,
        })
        .catch(unlessNoTenant({ objects: [] }));
      return result.objects
        .map((object) => object.properties)
        .sort((a, b) => a.chunkIndex - b.chunkIndex)
        .map((chunk) => chunk.text);
    },

    /**
     * Deletes a source's chunks from every chunk collection but this index's own: once a source's
     * current chunks are in this space, whatever it has in another space is stale.
     */
    async deleteSourceChunksInOtherSpaces(knowledgeBaseId: string, sourceKey: string): Promise<void> {
      for (const other of await otherChunkCollections()) {
        const chunksOfKb = client.collections.get<ChunkProperties>(other).withTenant(knowledgeBaseId);
        await chunksOfKb.data
          .deleteMany(chunksOfKb.filter.byProperty('sourceKey').equal(sourceKey))
          .catch(unlessNoTenant(undefined));
      }
    },

    /**
     * Hybrid search (BM25 over title and text, plus the query vector), best chunk first. Chunks
     * farther than `maxVectorDistance` from the query match only through their keywords.
     */
    async hybridSearch(
      knowledgeBaseId: string,
      query: string,
      vector: number[],
      options: { limit: number; maxVectorDistance: number; includeVector?: boolean; ranking?: HybridRanking },
    ): Promise<ChunkHit[]> {
      const chunksOfKb = await tenant(knowledgeBaseId);
      const ranking = options.ranking ?? defaultRanking;
      const result = await chunksOfKb.query
        .hybrid(query, {
          // The distance bounds the vector half only (maxVectorDistance would drop keyword matches too).
          vector: { vector, distance: options.maxVectorDistance },
          alpha: ranking.alpha,
          fusionType: ranking.fusion,
          limit: options.limit,
          queryProperties: [{ name: 'title', weight: 2 }, 'text'],
          returnProperties: searchedProperties,
          returnMetadata: ['score'],
          includeVector: options.includeVector ?? false,
        })
        .catch(unlessNoTenant({ objects: [] }));
      return result.objects.map((object) => ({
        id: object.uuid,
        properties: object.properties,
        score: object.metadata?.score ?? 0,
        ...(options.includeVector ? { vector: object.vectors.default as number[] } : {}),
      }));
    },

    /**
     * The sentence vectors stored with these chunks (by object id); a chunk written before they
     * were stored, or gone since, has none.
     */
    async sentenceVectorsOf(knowledgeBaseId: string, ids: string[]): Promise<Map<string, SentenceVectors>> {
      if (ids.length === 0) return new Map();
      const chunksOfKb = await tenant(knowledgeBaseId);
      const result = await chunksOfKb.query
        .fetchObjects({
          filters: chunksOfKb.filter.byId().containsAny(ids),
          returnProperties: ['sentenceVectors'],
          limit: ids.length,
        })
        .catch(unlessNoTenant({ objects: [] }));
      return new Map(result.objects.map((object) => [object.uuid, decodeSentenceVectors(object.properties.sentenceVectors)]));
    },

    /**
     * Keeps the vectors of a chunk's sentences on it (`sentence-vectors.ts`), for the answers that
     * read it next. A chunk deleted meanwhile (its source written again) is left gone.
     */
    async keepSentenceVectors(knowledgeBaseId: string, chunkId: string, texts: string[], vectors: number[][]): Promise<void> {
      const chunksOfKb = await tenant(knowledgeBaseId);
      if (!(await chunksOfKb.data.exists(chunkId).catch(unlessNoTenant(false)))) return;
      await chunksOfKb.data.update({ id: chunkId, properties: { sentenceVectors: encodeSentenceVectors(texts, vectors) } });
    },

    /**
     * Keyword (BM25) search over title and text of one integration's chunks, best first: the
     * help centre's article search. Only ids and scores come back.
     */
    async keywordSearch(
      knowledgeBaseId: string,
      query: string,
      options: { integrationId: string; limit: number },
    ): Promise<Array<{ externalId: string; score: number }>> {
      const chunksOfKb = await tenant(knowledgeBaseId);
      const result = await chunksOfKb.query
        .bm25(query, {
          limit: options.limit,
          queryProperties: [{ name: 'title', weight: 2 }, 'text'],
          filters: chunksOfKb.filter.byProperty('integrationId').equal(options.integrationId),
          returnProperties: ['externalId'],
          returnMetadata: ['score'],
        })
        .catch(unlessNoTenant({ objects: [] }));
      return result.objects.map((object) => ({ externalId: object.properties.externalId, score: object.metadata?.score ?? 0 }));
    },
  });
}

export type ChunkIndex = ReturnType<typeof createChunkIndex>;

/**
 * A knowledge base that never received a chunk has no Weaviate tenant yet: there is nothing to read
 * or delete, which Weaviate reports as an error naming the missing tenant. Catching it saves asking
 * for the tenant before every search.
 */
function unlessNoTenant<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof Error && /tenant not found/.test(error.message)) return fallback;
    throw error;
  };
}

async function ensureCollection(client: WeaviateClient, name: string): Promise<Collection<StoredChunk>> {
  if (!(await client.collections.exists(name))) {
    try {
      await client.collections.create<StoredChunk>({
        name,
        description: 'Chunks of knowledge-base sources, with their own vectors; one tenant per knowledge base.',
        vectorizers: weaviate.configure.vectors.selfProvided(),
        multiTenancy: weaviate.configure.multiTenancy({ enabled: true, autoTenantCreation: true, autoTenantActivation: true }),
        properties: [...chunkPropertySchema, sentenceVectorsProperty],
      });
    } catch (error) {
      // Another process created it between the check and the create.
      if (!(await client.collections.exists(name))) throw error;
    }
  }
  const collection = client.collections.get<StoredChunk>(name);
  await addSentenceVectors(collection);
  return collection;
}

/** What a chunk says, as Weaviate keeps it: the properties a search returns. */
const chunkPropertySchema = [
  { name: 'sourceKey', dataType: 'text', tokenization: 'field', indexSearchable: false },
  { name: 'generation', dataType: 'text', tokenization: 'field', indexSearchable: false },
  { name: 'integrationId', dataType: 'text', tokenization: 'field', indexSearchable: false },
  { name: 'externalId', dataType: 'text', tokenization: 'field', indexSearchable: false },
  { name: 'sourceType', dataType: 'text', tokenization: 'field', indexSearchable: false },
  { name: 'sourceOrigin', dataType: 'text', tokenization: 'field', indexSearchable: false },
  { name: 'title', dataType: 'text', tokenization: 'word' },
  { name: 'text', dataType: 'text', tokenization: 'word' },
  { name: 'chunkIndex', dataType: 'int', indexSearchable: false },
  { name: 'embeddingProvider', dataType: 'text', tokenization: 'field', indexSearchable: false },
  { name: 'embeddingModel', dataType: 'text', tokenization: 'field', indexSearchable: false },
] as const;

/** All but the sentence vectors, which only the answerer reads. */
const searchedProperties = chunkPropertySchema.map((property) => property.name);

// A blob is neither indexed nor returned unless asked for.
const sentenceVectorsProperty = { name: 'sentenceVectors', dataType: 'blob' } as const;

/**
 * A collection created before sentence vectors were stored gains the property; its chunks have none
 * until their source is written again, and the answerer embeds their sentences meanwhile.
 */
async function addSentenceVectors(collection: Collection<StoredChunk>): Promise<void> {
  const { properties } = await collection.config.get();
  if (properties.some((property) => property.name === sentenceVectorsProperty.name)) return;
  try {
    await collection.config.addProperty(sentenceVectorsProperty);
  } catch (error) {
    // Another process added it first.
    const again = await collection.config.get();
    if (!again.properties.some((property) => property.name === sentenceVectorsProperty.name)) throw error;
  }
}
