import type { Inbox } from '#conversations/inbox.js';
import type { ConversationRecords } from '#conversations/records.js';
import { InvalidCursorError, type ConversationSearch } from '#conversations/search/conversation-search.js';
import { AppError } from '#api/errors.js';
import type { UserGuard } from '#api/middleware/token-budgets.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import { ownedConversation } from './reply-sending.js';
import { searchQuery, searchResponse, similarQuery, similarResponse } from '#api/schemas/search.js';
import type { UserState } from '#api/state.js';

export interface ConversationSearchRouterDeps {
  requireUser: UserGuard;
  search: Pick<ConversationSearch, 'search' | 'similar'>;
  records: Pick<ConversationRecords, 'get'>;
  inbox: Pick<Inbox, 'summarize'>;
}

const permission = "Roles admin and agent (user token); only conversations of the user's tenant.";

/** A cursor we did not hand out, or whose results have expired (or are another tenant's): 400. */
const cursorRefused = (error: InvalidCursorError) =>
  new AppError(400, error.reason === 'expired' ? 'cursor_expired' : 'invalid_payload', error.message, [
    { path: '/cursor', message: error.reason === 'expired' ? 'has expired' : 'is not a cursor a search returned' },
  ]);

/**
 * Search over the tenant's conversations and their messages (docs/agent-inbox.md, "Conversation
 * search"): the Weaviate index the worker keeps in step, never a scan of the conversations.
 */
export function createConversationSearchRouter({ requireUser, search, records, inbox }: ConversationSearchRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Agent inbox'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(requireUser(['admin', 'agent']));

  router.get(
    '/agent/search',
    {
      summary: 'Search conversations',
      description:
        "The tenant's conversations whose messages (the visitor's, the AI's, agents' and their private notes) or contact hold every word of `q`, best match first, with the filters; " +
        'each with its summary as the inbox shows it and up to three matching messages with a snippet. ' +
        'Pages are stable: the first page fixes the results (up to 1,000 conversations) for 15 minutes, and `nextCursor` reads on through them, however many conversations start meanwhile. ' +
        'A new message is searchable within seconds (an index kept in step by the worker). ' +
        permission,
      query: searchQuery,
      responses: { 200: { description: 'A page of results', schema: searchResponse } },
      errors: [400],
    },
    async (ctx) => {
      const { q, cursor, limit, status, channel, teamId, agentId, from, to, rating } = ctx.state.query;
      const filters = {
        ...(status ? { status } : {}),
        ...(channel ? { channel } : {}),
        ...(teamId ? { teamId } : {}),
        ...(agentId ? { agentId } : {}),
        ...(from ? { from: new Date(from) } : {}),
        ...(to ? { to: new Date(to) } : {}),
        ...(rating ? { rating } : {}),
      };
      try {
        const page = await search.search(ctx.state.user.tenantId, { query: q, filters, limit, ...(cursor ? { cursor } : {}) });
        ctx.body = {
          results: await Promise.all(
            page.hits.map(async (hit) => ({ conversation: await inbox.summarize(hit.record), matches: hit.matches })),
          ),
          nextCursor: page.nextCursor,
        };
      } catch (error) {
        if (error instanceof InvalidCursorError) throw cursorRefused(error);
        throw error;
      }
    },
  );

  router.get(
    '/agent/conversations/{conversationId}/similar',
    {
      summary: 'Conversations like this one',
      description:
        "The tenant's other conversations most alike in what their visitors wrote (BM25 over this conversation's visitor messages), most alike first; none before it was indexed. " +
        `Another tenant's conversation: 403; unknown: 404. ${permission}`,
      query: similarQuery,
      responses: { 200: { description: 'The similar conversations', schema: similarResponse } },
      errors: [404],
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const conversationId = ctx.params.conversationId!;
      const record = await ownedConversation(records, tenantId, conversationId);
      const similar = await search.similar(record, ctx.state.query.limit);
      ctx.body = { conversationId: record.conversationId, similar: await Promise.all(similar.map(inbox.summarize)) };
    },
  );

  return router;
}
