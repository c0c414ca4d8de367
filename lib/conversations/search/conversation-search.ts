import { randomUUID } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { ConversationRecord } from '../records.js';
import type { SearchableMessage } from './documents.js';
import { conversationObjectId, type ConversationSearchIndex, type SearchFilters } from './search-index.js';
import { matchedMessages, queryWords, type MatchedMessage } from './snippets.js';

/**
 * The agents' search over a tenant's conversations (docs/agent-inbox.md, "Conversation search").
 * The first page runs the query (BM25, every word, best first) and keeps the ranked ids of up to
 * `maxResults` conversations in Redis for `resultsTtlSeconds`; the cursor names that list and a
 * position in it, so the next pages read the same list: conversations started or changed meanwhile
 * neither shift nor repeat a page (BM25 scores move as documents arrive, which an offset into a new
 * query, or a score as cursor, would not survive). Each page shows the conversations as they are now.
 */

export const searchLimits = { maxResults: 1_000, resultsTtlSeconds: 900, queryChars: 200 } as const;

export interface SearchHit {
  record: ConversationRecord;
  matches: MatchedMessage[];
}

export interface SearchPage {
  hits: SearchHit[];
  /** The next page's cursor; null on the last page. */
  nextCursor: string | null;
}

/** A cursor that is not one of ours, or whose results expired or belong to another tenant. */
export class InvalidCursorError extends Error {
  constructor(readonly reason: 'malformed' | 'expired') {
    super(
      reason === 'malformed'
        ? 'This cursor is not one a search returned.'
        : 'These results have expired: run the search again from its first page.',
    );
    this.name = 'InvalidCursorError';
  }
}

export interface ConversationSearchDeps {
  redis: Pick<RedisClient, 'set' | 'get'>;
  prefix: string;
  index: Pick<ConversationSearchIndex, 'search' | 'read' | 'similar'>;
  records: { get(conversationId: string): Promise<ConversationRecord | undefined> };
}

interface StoredResults {
  tenantId: string;
  query: string;
  /** The matching conversations' index object ids, best first. */
  ids: string[];
}

const cursorPattern = /^([0-9a-f-]{36})\.(\d{1,4})$/;

function encodeCursor(searchId: string, position: number): string {
  return Buffer.from(`${searchId}.${position}`).toString('base64url');
}

function decodeCursor(cursor: string): { searchId: string; position: number } {
  const match = cursorPattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new InvalidCursorError('malformed');
  return { searchId: match[1]!, position: Number(match[2]) };
}

export function createConversationSearch({ redis, prefix, index, records }: ConversationSearchDeps) {
  const resultsKey = (searchId: string) => `${prefix}:conversation-search:results:${searchId}`;

  /** The page's conversations (by object id), still indexed and the tenant's, with their matching messages. */
  async function hitsOf(tenantId: string, query: string, objectIds: string[]): Promise<SearchHit[]> {
    const indexed = await index.read(tenantId, objectIds);
    const page = objectIds.flatMap((id) => indexed.get(id) ?? []);
    const found = await Promise.all(page.map((conversation) => records.get(conversation.conversationId)));
    return page.flatMap((conversation, i) => {
      const record = found[i];
      if (record?.tenantId !== tenantId) return [];
      const messages = JSON.parse(conversation.messages) as SearchableMessage[];
      return [{ record, matches: matchedMessages(messages, query) }];
    });
  }

  return tagUnavailable('redis', {
    /**
     * One page of the tenant's conversations matching `query` and the filters: the first without a
     * cursor (the filters then apply), the next ones with the cursor the previous page returned.
     */
    async search(
      tenantId: string,
      request: { query: string; filters: SearchFilters; limit: number; cursor?: string },
    ): Promise<SearchPage> {
      let results: StoredResults;
      let position = 0;
      let searchId: string;
      if (request.cursor) {
        ({ searchId, position } = decodeCursor(request.cursor));
        const json = await redis.get(resultsKey(searchId));
        const stored = json ? (JSON.parse(json) as StoredResults) : undefined;
        // Another tenant's results are, for this one, results that do not exist.
        if (!stored || stored.tenantId !== tenantId) throw new InvalidCursorError('expired');
        results = stored;
      } else {
        searchId = randomUUID();
        const ids =
          queryWords(request.query).length === 0
            ? []
            : await index.search(tenantId, request.query, request.filters, searchLimits.maxResults);
        results = { tenantId, query: request.query, ids };
        if (ids.length > request.limit)
          await redis.set(resultsKey(searchId), JSON.stringify(results), { EX: searchLimits.resultsTtlSeconds });
      }
      const end = position + request.limit;
      const hits = await hitsOf(tenantId, results.query, results.ids.slice(position, end));
      return { hits, nextCursor: end < results.ids.length ? encodeCursor(searchId, end) : null };
    },

    /** The tenant's conversations most like this one (BM25 over its visitor's words), best first. */
    async similar(record: ConversationRecord, limit: number): Promise<ConversationRecord[]> {
      const objectId = conversationObjectId(record.conversationId);
      const indexed = (await index.read(record.tenantId, [objectId])).get(objectId);
      const messages = JSON.parse(indexed?.messages ?? '[]') as SearchableMessage[];
      // What the visitor asked says what the conversation is about; the answers repeat the knowledge base.
      const words = queryWords(
        messages
          .filter((message) => message.author === 'visitor')
          .map((message) => message.text)
          .join(' '),
      ).slice(0, 64);
      if (words.length === 0) return [];
      const ids = await index.similar(record.tenantId, record.conversationId, words.join(' '), limit);
      const found = await Promise.all(ids.map((id) => records.get(id)));
      return found.filter((other): other is ConversationRecord => other?.tenantId === record.tenantId);
    },
  });
}

export type ConversationSearch = ReturnType<typeof createConversationSearch>;
