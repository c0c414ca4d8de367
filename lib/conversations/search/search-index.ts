import weaviate, { Filters, generateUuid5, type Collection, type FilterValue, type WeaviateClient } from 'weaviate-client';
import pLimit from 'p-limit';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { Channel, ConversationStatus } from '#workflows/conversations/types.js';
import type { ConversationDocument } from './documents.js';

/**
 * The conversations' search index: one Weaviate collection, BM25 only (no vectorizer, no vectors),
 * one Weaviate tenant per tenant, so a tenant's search never reads another's conversations and a
 * tenant can be dropped whole. One object per conversation, its id derived from the conversation's,
 * so writing it again replaces it.
 */

export const conversationCollectionName = 'ConversationSearch';

/** What Weaviate keeps of a conversation (dates as Weaviate dates). */
type StoredConversation = Omit<ConversationDocument, 'tenantId'>;

export interface SearchFilters {
  status?: ConversationStatus;
  channel?: Channel;
  teamId?: string;
  agentId?: string;
  /** Conversations active on or after `from` and started on or before `to`. */
  from?: Date;
  to?: Date;
  /** The visitor's satisfaction score, 1–5. */
  rating?: number;
}

/** A conversation as a page of results shows it from the index. */
export interface IndexedConversation {
  conversationId: string;
  messages: string;
}

/** Writes in flight at once: one object per call (see `chunk-index.ts`: batches of two or more wait 500 ms in the client). */
const writeConcurrency = 16;

export function conversationObjectId(conversationId: string): string {
  return generateUuid5(`conversation-search|${conversationId}`);
}

export function createConversationSearchIndex(client: WeaviateClient) {
  let ready: Promise<Collection<StoredConversation>> | undefined;

  function collection(): Promise<Collection<StoredConversation>> {
    ready ??= ensureCollection(client).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  const ofTenant = async (tenantId: string) => (await collection()).withTenant(tenantId);

  function filtersOf(conversations: Collection<StoredConversation>, filters: SearchFilters): FilterValue | undefined {
    const by = conversations.filter;
    const all: FilterValue[] = [];
    if (filters.status) all.push(by.byProperty('status').equal(filters.status));
    if (filters.channel) all.push(by.byProperty('channel').equal(filters.channel));
    if (filters.teamId) all.push(by.byProperty('teamId').equal(filters.teamId));
    if (filters.agentId) all.push(by.byProperty('agentIds').containsAny([filters.agentId]));
    if (filters.from) all.push(by.byProperty('lastActivityAt').greaterOrEqual(filters.from));
    if (filters.to) all.push(by.byProperty('createdAt').lessOrEqual(filters.to));
    if (filters.rating) all.push(by.byProperty('rating').equal(filters.rating));
    return all.length === 0 ? undefined : all.length === 1 ? all[0] : Filters.and(...all);
  }

  return tagUnavailable('weaviate', {
    collection,

    /**
     * Writes each conversation's document (replacing what was there); a refused one is an error
     * naming how many were refused, after the others were written.
     */
    async upsert(documents: ConversationDocument[]): Promise<void> {
      const conversations = await collection();
      const limit = pLimit(writeConcurrency);
      const results = await Promise.all(
        documents.map(({ tenantId, ...properties }) =>
          limit(() =>
            conversations
              .withTenant(tenantId)
              .data.insertMany([{ id: conversationObjectId(properties.conversationId), properties }]),
          ),
        ),
      );
      const refused = results.flatMap((result) => Object.values(result.errors));
      if (refused.length > 0)
        throw new Error(`Weaviate refused ${refused.length} of ${documents.length} conversations: ${refused[0]?.message}`);
    },

    /** Removes a conversation from the index (its record is gone). */
    async remove(tenantId: string, conversationId: string): Promise<void> {
      const conversations = await ofTenant(tenantId);
      await conversations.data.deleteById(conversationObjectId(conversationId)).catch(unlessNoTenant(undefined));
    },

    /**
     * The object ids of the tenant's conversations matching every word of `query` (BM25 over the
     * messages, and the contact's name and e-mail) and the filters, best first, at most `limit`. Ids
     * only: no property of a thousand hits is read (`read` reads a page's).
     */
    async search(tenantId: string, query: string, filters: SearchFilters, limit: number): Promise<string[]> {
      const conversations = await ofTenant(tenantId);
      const result = await conversations.query
        .bm25(query, {
          queryProperties: ['texts', 'contact'],
          operator: { operator: 'And' },
          filters: filtersOf(conversations, filters),
          limit,
          returnProperties: [],
        })
        .catch(unlessNoTenant({ objects: [] }));
      return result.objects.map((object) => object.uuid);
    },

    /**
     * Conversations like this one: BM25 over `text` (the conversation's own words) with any word
     * matching, best first, itself left out.
     */
    async similar(tenantId: string, conversationId: string, text: string, limit: number): Promise<string[]> {
      const conversations = await ofTenant(tenantId);
      const result = await conversations.query
        .bm25(text, {
          queryProperties: ['texts'],
          filters: conversations.filter.byProperty('conversationId').notEqual(conversationId),
          limit,
          returnProperties: ['conversationId'],
        })
        .catch(unlessNoTenant({ objects: [] }));
      return result.objects.map((object) => object.properties.conversationId);
    },

    /** The indexed conversations of these object ids, by object id (those not indexed are absent). */
    async read(tenantId: string, objectIds: string[]): Promise<Map<string, IndexedConversation>> {
      if (objectIds.length === 0) return new Map();
      const conversations = await ofTenant(tenantId);
      const result = await conversations.query
        .fetchObjects({
          filters: conversations.filter.byId().containsAny(objectIds),
          returnProperties: ['conversationId', 'messages'],
          limit: objectIds.length,
        })
        .catch(unlessNoTenant({ objects: [] }));
      return new Map(
        result.objects.map(({ uuid, properties: { conversationId, messages } }) => [uuid, { conversationId, messages }]),
      );
    },

    /** Drops tenants' conversations whole (tests; a deleted tenant). */
    async removeTenants(tenantIds: string[]): Promise<void> {
      if (tenantIds.length > 0) await (await collection()).tenants.remove(tenantIds);
    },
  });
}

export type ConversationSearchIndex = ReturnType<typeof createConversationSearchIndex>;

/** A tenant never indexed has no Weaviate tenant: nothing to find or delete (as in `chunk-index.ts`). */
function unlessNoTenant<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof Error && /tenant not found/.test(error.message)) return fallback;
    throw error;
  };
}

const notSearchable = { indexSearchable: false } as const;

async function ensureCollection(client: WeaviateClient): Promise<Collection<StoredConversation>> {
  if (!(await client.collections.exists(conversationCollectionName))) {
    try {
      await client.collections.create<StoredConversation>({
        name: conversationCollectionName,
        description: "Conversations for the agents' search (BM25, no vectors); one tenant per tenant.",
        vectorizers: weaviate.configure.vectors.selfProvided(),
        multiTenancy: weaviate.configure.multiTenancy({ enabled: true, autoTenantCreation: true, autoTenantActivation: true }),
        properties: [
          { name: 'conversationId', dataType: 'text', tokenization: 'field', ...notSearchable },
          { name: 'operatorId', dataType: 'text', tokenization: 'field', ...notSearchable },
          { name: 'status', dataType: 'text', tokenization: 'field', ...notSearchable },
          { name: 'channel', dataType: 'text', tokenization: 'field', ...notSearchable },
          { name: 'teamId', dataType: 'text', tokenization: 'field', ...notSearchable },
          { name: 'agentIds', dataType: 'text[]', tokenization: 'field', ...notSearchable },
          { name: 'createdAt', dataType: 'date' },
          { name: 'lastActivityAt', dataType: 'date' },
          { name: 'rating', dataType: 'int' },
          { name: 'contact', dataType: 'text', tokenization: 'word', indexFilterable: false },
          { name: 'texts', dataType: 'text[]', tokenization: 'word', indexFilterable: false },
          // Read back for the snippets, never searched.
          { name: 'messages', dataType: 'text', indexSearchable: false, indexFilterable: false },
        ],
      });
    } catch (error) {
      // Another process created it between the check and the create.
      if (!(await client.collections.exists(conversationCollectionName))) throw error;
    }
  }
  return client.collections.get<StoredConversation>(conversationCollectionName);
}
