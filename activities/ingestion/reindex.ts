import { heartbeat } from '@temporalio/activity';
import type { Embedder } from '#knowledge/embeddings/index.js';
import type { IngestionClient } from '#knowledge/ingestion-client.js';
import { isEmbeddedIn, type SourceStore } from '#knowledge/sources.js';
import { parseSourceKey } from '#workflows/ids.js';
import type { ReembedPage, SourceToReembed } from '#workflows/ingestion/types.js';
import { sendToItems } from './send-to-items.js';

export interface ReindexDeps {
  sources: SourceStore;
  embedder: Pick<Embedder, 'space'>;
  ingestion: Pick<IngestionClient, 'reembed'>;
}

/** Source keys read per page (a Redis scan may give a few more). */
const pageSize = 200;

interface KnowledgeBaseRef {
  tenantId: string;
  knowledgeBaseId: string;
}

/** The re-index's side effects: finding a knowledge base's sources in another embedding space, and asking for them. */
export function createReindexActivities({ sources, embedder, ingestion }: ReindexDeps) {
  /** One page of the knowledge base's listing, with its sources not in the current space. */
  async function staleSourcesOfPage({ tenantId, knowledgeBaseId }: KnowledgeBaseRef, cursor?: string): Promise<ReembedPage> {
    const page = await sources.listPage(tenantId, knowledgeBaseId, { cursor, count: pageSize });
    const places = await sources.getPlaces(tenantId, page.sourceKeys);
    const stale: SourceToReembed[] = [];
    page.sourceKeys.forEach((sourceKey, i) => {
      const place = places[i];
      if (place?.knowledgeBaseId !== knowledgeBaseId || isEmbeddedIn(place, embedder.space)) return;
      stale.push({ sourceKey, ...parseSourceKey(sourceKey), sourceType: place.sourceType });
    });
    return page.cursor ? { sources: stale, cursor: page.cursor } : { sources: stale };
  }

  return {
    /** A page of the knowledge base's sources whose current chunks are in another embedding space; no cursor at the end. */
    listSourcesToReembed(input: KnowledgeBaseRef & { cursor?: string }): Promise<ReembedPage> {
      return staleSourcesOfPage(input, input.cursor);
    },

    /** How many of the knowledge base's sources are in another embedding space: the whole listing, a page at a time. */
    async countSourcesToReembed(input: KnowledgeBaseRef): Promise<number> {
      let count = 0;
      let cursor: string | undefined;
      do {
        const page = await staleSourcesOfPage(input, cursor);
        count += page.sources.length;
        cursor = page.cursor;
        heartbeat({ count });
      } while (cursor);
      return count;
    },

    /** Asks each source's item workflow to embed it again (starting the workflow when none runs), at the lowest priority. */
    async requestReembeds(input: KnowledgeBaseRef & { sources: SourceToReembed[] }): Promise<void> {
      await sendToItems(input.sources, (source) =>
        ingestion.reembed(
          { tenantId: input.tenantId, integrationId: source.integrationId, externalId: source.externalId },
          { knowledgeBaseId: input.knowledgeBaseId, sourceType: source.sourceType },
        ),
      );
    },
  };
}
