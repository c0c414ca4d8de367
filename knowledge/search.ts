import type { Embedder } from '#activities/embeddings/index.js';
import type { ChunkIndex } from './chunk-index.js';
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

const snippetLength = 300;

/**
 * The retrieval the AI answers from: hybrid search over a knowledge base's chunks, one row per
 * source (its best passage), best first. A chunk counts only while its generation is the source's
 * current one, so a search never mixes an item's old and new chunks.
 */
export function createKnowledgeSearch(deps: {
  chunkIndex: ChunkIndex;
  embedder: Pick<Embedder, 'embed'>;
  sources: SourceStore;
  minSimilarity: number;
}) {
  return {
    async search(tenantId: string, knowledgeBaseId: string, query: string, limit: number): Promise<SearchResult[]> {
      const [vector] = await deps.embedder.embed([query]);
      // Several chunks of one source compete for places: ask for more than the rows wanted.
      const hits = await deps.chunkIndex.hybridSearch(knowledgeBaseId, query, vector!, {
        limit: Math.min(200, Math.max(20, limit * 4)),
        // Weaviate's cosine distance is 1 - similarity.
        maxVectorDistance: 1 - deps.minSimilarity,
      });

      // Stale chunks (an older generation, or a source moved or deleted) are dropped before each
      // source keeps its best passage, so a source mid-update still shows its current text.
      const sourceKeys = [...new Set(hits.map((hit) => hit.properties.sourceKey))];
      const records = await deps.sources.getMany(tenantId, sourceKeys);
      const recordOf = new Map(sourceKeys.map((sourceKey, i) => [sourceKey, records[i]]));

      const results = new Map<string, SearchResult>();
      for (const hit of hits) {
        const record = recordOf.get(hit.properties.sourceKey);
        if (results.has(hit.properties.sourceKey) || !isCurrent(record, hit.properties.generation, knowledgeBaseId)) continue;
        results.set(hit.properties.sourceKey, {
          externalId: record.externalId,
          integrationId: record.integrationId,
          sourceType: record.sourceType,
          sourceOrigin: record.sourceOrigin || null,
          title: record.title,
          url: record.url,
          snippet: snippetOf(hit.properties.text || record.title),
          score: hit.score,
          metadata: record.metadata,
          sourceData: record.sourceData,
        });
      }
      return [...results.values()].slice(0, limit);
    },
  };
}

export type KnowledgeSearch = ReturnType<typeof createKnowledgeSearch>;

function isCurrent(record: SourceRecord | undefined, generation: string, knowledgeBaseId: string): record is SourceRecord {
  return record !== undefined && record.generation === generation && record.knowledgeBaseId === knowledgeBaseId;
}

/** The passage, cut at a word boundary near `snippetLength`. */
function snippetOf(text: string): string {
  if (text.length <= snippetLength) return text;
  const cut = text.lastIndexOf(' ', snippetLength);
  return `${text.slice(0, cut > snippetLength / 2 ? cut : snippetLength)}…`;
}
