import type { Embedder } from './embeddings/index.js';
import { defaultRanking, type ChunkHit, type ChunkIndex, type HybridRanking } from './chunk-index.js';
import { SentenceVectors } from './sentence-vectors.js';
import type { SourceRecord, SourceStore } from './sources.js';

export interface SearchResult {
  externalId: string;
  integrationId: string;
  sourceType: string;
  sourceOrigin: string | null;
  title: string;
  url: string | null;
  snippet: string;
  score: number;
  metadata: Record<string, unknown> | null;
  sourceData: Record<string, unknown> | null;
}

/** One source the answer may cite: its passages (several chunks of it, merged), best source first. */
export interface RetrievedSource {
  /** Citation number, 1-based, in order of relevance. */
  n: number;
  sourceKey: string;
  externalId: string;
  integrationId: string;
  sourceType: string;
  title: string;
  url: string | null;
  /** The source's matching passages in document order, joined by blank lines (title not repeated). */
  text: string;
  score: number;
  /** Cosine similarity between the question and the source's closest chunk: how near it is in meaning. */
  similarity: number;
  /** The vectors of the passages' sentences, kept by an answer that read them before; absent when none were kept. */
  sentenceVectors?: SentenceVectors;
  /** The chunks of `text`, in its order, and whether their sentences' vectors were kept. */
  chunks?: Array<{ id: string; text: string; sentencesKept: boolean }>;
}

export interface RetrieveOptions {
  /** Sources an answer may cite. */
  maxSources: number;
  /** Chunks of one source merged into its passage text. */
  maxPassagesPerSource: number;
  /** Least cosine similarity between the question and a source's best chunk. */
  minSimilarity: number;
}

/** A chunk that belongs to its source's current version, with that source's record. */
interface CurrentHit {
  hit: ChunkHit;
  record: SourceRecord;
}

/** A source's current chunks among the hits, best first, and the score it ranks by. */
interface RankedSource {
  record: SourceRecord;
  hits: ChunkHit[];
  score: number;
}

/**
 * How a source's chunks add up to its rank: its best chunk's score, plus this share of its second
 * best's, so a source that matches in two places edges out one that matches in one. Chosen with
 * the ranking on the evaluation set (`npm run eval:tune`).
 */
export const defaultSecondChunkWeight = 0;

/** Sources in order of their score; a source's hits keep the hybrid ranking's order. */
function rankSources(hits: CurrentHit[], secondChunkWeight: number): RankedSource[] {
  const bySource = new Map<string, RankedSource>();
  for (const { hit, record } of hits) {
    const source = bySource.get(hit.properties.sourceKey);
    if (!source) bySource.set(hit.properties.sourceKey, { record, hits: [hit], score: hit.score });
    else {
      if (source.hits.length === 1) source.score += secondChunkWeight * hit.score;
      source.hits.push(hit);
    }
  }
  // A stable sort: sources of equal score keep the order of their best chunks.
  return [...bySource.values()].sort((a, b) => b.score - a.score);
}

const snippetLength = 300;

/**
 * The retrieval the AI answers from: hybrid search over a knowledge base's chunks. A chunk counts
 * only while its generation is the source's current one, so a search never mixes an item's old and
 * new chunks. `search` gives one row per source (its best passage); `retrieve` gives the few sources
 * close enough to the question to answer from, several chunks of each merged.
 */
export function createKnowledgeSearch(deps: {
  chunkIndex: ChunkIndex;
  embedder: Pick<Embedder, 'embed'>;
  sources: SourceStore;
  minSimilarity: number;
  ranking?: HybridRanking;
  secondChunkWeight?: number;
}) {
  const ranking = deps.ranking ?? defaultRanking;
  const secondChunkWeight = deps.secondChunkWeight ?? defaultSecondChunkWeight;

  async function currentHits(
    tenantId: string,
    knowledgeBaseId: string,
    query: string,
    limit: number,
    includeVector: boolean,
  ): Promise<{ vector: number[]; hits: CurrentHit[] }> {
    const [vector] = await deps.embedder.embed([query]);
    const hits = await deps.chunkIndex.hybridSearch(knowledgeBaseId, query, vector!, {
      limit,
      // Weaviate's cosine distance is 1 - similarity.
      maxVectorDistance: 1 - deps.minSimilarity,
      includeVector,
      ranking,
    });
    // Stale chunks (an older generation, or a source moved or deleted) are dropped before sources
    // are ranked, so a source mid-update still shows its current text.
    const sourceKeys = [...new Set(hits.map((hit) => hit.properties.sourceKey))];
    const records = await deps.sources.getMany(tenantId, sourceKeys);
    const recordOf = new Map(sourceKeys.map((sourceKey, i) => [sourceKey, records[i]]));
    const current: CurrentHit[] = [];
    for (const hit of hits) {
      const record = recordOf.get(hit.properties.sourceKey);
      if (isCurrent(record, hit.properties.generation, knowledgeBaseId)) current.push({ hit, record });
    }
    return { vector: vector!, hits: current };
  }

  return {
    async search(tenantId: string, knowledgeBaseId: string, query: string, limit: number): Promise<SearchResult[]> {
      // Several chunks of one source compete for places: ask for more than the rows wanted.
      const { hits } = await currentHits(tenantId, knowledgeBaseId, query, Math.min(200, Math.max(20, limit * 4)), false);
      return rankSources(hits, secondChunkWeight)
        .slice(0, limit)
        .map(({ record, hits: [best], score }) => ({
          externalId: record.externalId,
          integrationId: record.integrationId,
          sourceType: record.sourceType,
          sourceOrigin: record.sourceOrigin || null,
          title: record.title,
          url: record.url,
          snippet: snippetOf(best!.properties.text || record.title),
          score,
          metadata: record.metadata,
          sourceData: record.sourceData,
        }));
    },

    /**
     * The sources to answer `question` from, in the search's order, numbered for citation. A source
     * counts only if one of its chunks is close enough to the question in meaning: a stray keyword
     * match does not make an answer. None at all means the knowledge base does not answer it.
     */
    async retrieve(
      tenantId: string,
      knowledgeBaseId: string,
      question: string,
      options: RetrieveOptions,
    ): Promise<RetrievedSource[]> {
      const { vector, hits } = await currentHits(tenantId, knowledgeBaseId, question, 30, true);
      const chosen = rankSources(hits, secondChunkWeight)
        .map((source) => ({
          ...source,
          similarity: Math.max(...source.hits.map((hit) => cosineSimilarity(vector, hit.vector ?? []))),
          passages: source.hits
            .slice(0, options.maxPassagesPerSource)
            .sort((a, b) => a.properties.chunkIndex - b.properties.chunkIndex),
        }))
        .filter((source) => source.similarity >= options.minSimilarity)
        .slice(0, options.maxSources);
      const stored = await deps.chunkIndex.sentenceVectorsOf(
        knowledgeBaseId,
        chosen.flatMap((source) => source.passages.map((hit) => hit.id)),
      );
      return chosen.map(({ record, hits, passages, score, similarity }, i) => ({
        n: i + 1,
        sourceKey: hits[0]!.properties.sourceKey,
        externalId: record.externalId,
        integrationId: record.integrationId,
        sourceType: record.sourceType,
        title: record.title,
        url: record.url,
        text: passages.map((hit) => hit.properties.text).join('\n\n'),
        score,
        similarity,
        sentenceVectors: SentenceVectors.merged(passages.map((hit) => stored.get(hit.id))),
        chunks: passages.map((hit) => ({
          id: hit.id,
          text: hit.properties.text,
          sentencesKept: (stored.get(hit.id)?.size ?? 0) > 0,
        })),
      }));
    },
  };
}

export type KnowledgeSearch = ReturnType<typeof createKnowledgeSearch>;

function isCurrent(record: SourceRecord | undefined, generation: string, knowledgeBaseId: string): record is SourceRecord {
  return record !== undefined && record.generation === generation && record.knowledgeBaseId === knowledgeBaseId;
}

export function cosineSimilarity(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** The passage, cut at a word boundary near `snippetLength`. */
function snippetOf(text: string): string {
  if (text.length <= snippetLength) return text;
  const cut = text.lastIndexOf(' ', snippetLength);
  return `${text.slice(0, cut > snippetLength / 2 ? cut : snippetLength)}…`;
}
