import type { ConversationRecords } from '#conversations/records.js';
import type { Ratings } from '#insights/ratings.js';
import { notClosedByAgent, notFound } from '../errors.js';
import type { ChatRateLimits } from '../middleware/chat-rate-limits.js';
import { requireOperator } from '../middleware/operator-auth.js';
import { visitorIdentityChecks, type VisitorIdentityDeps } from '../middleware/visitor-identity.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { conversationStateResponse } from '../schemas/chat.js';
import {
  answerFeedbackRequest,
  answerFeedbackResponse,
  satisfactionRequest,
  satisfactionResponse,
} from '../schemas/chat-feedback.js';
import type { ChatState } from '../state.js';
import type { ChatRouterDeps } from './chat.js';
import { visitorGuards, visitorTokenHeader } from './chat-visitor.js';

export interface ChatFeedbackRouterDeps {
  tenancy: ChatRouterDeps['tenancy'];
  records: Pick<ConversationRecords, 'get'>;
  identity: VisitorIdentityDeps;
  rateLimits: ChatRateLimits;
  ratings: Pick<Ratings, 'rateAnswer' | 'rateSatisfaction' | 'satisfactionOf'>;
}

/**
 * The widget's ratings (docs/insights.md, "Feedback"): an AI answer rated up or down, the 1–5 score
 * after an agent closed the conversation, and the conversation's state that says both. The same
 * authentication as the other chat routes, with budgets of their own besides.
 */
export function createChatFeedbackRouter({ tenancy, records, identity, rateLimits, ratings }: ChatFeedbackRouterDeps) {
  const { verifiedWhenRequired } = visitorIdentityChecks(identity);
  const router = new DocumentedRouter<ChatState>({ tags: ['Chat'], security: 'operatorKey', errors: [401, 403, 429, 503] });
  router.use(requireOperator(tenancy));
  const guards = { records, verifiedVisitors: identity.verifiedVisitors, rateLimits, verifiedWhenRequired };
  const visitor = visitorGuards(guards);
  const rating = visitorGuards(guards, { perVisitor: rateLimits.ratingsPerVisitor, perOperator: rateLimits.ratingsPerOperator });
  const ratingBudgets =
    "Ratings have budgets of their own besides the visitor's and the operator's (CHAT_RATINGS_PER_VISITOR per 10 minutes, CHAT_RATINGS_OPERATOR_PER_MINUTE): 429 `rate_limited` with `Retry-After`.";

  router.get(
    '/chat/conversations/{conversationId}',
    {
      summary: 'The conversation',
      description:
        'Its status, who closed it (`closedBy`: `agent`, `idle`, `visitor`, or null while open), and the score the visitor gave (`satisfaction`, or null).',
      headers: [visitorTokenHeader],
      responses: { 200: { description: 'The conversation', schema: conversationStateResponse } },
      errors: [404],
    },
    ...visitor,
    async (ctx) => {
      const { conversation } = ctx.state;
      ctx.body = {
        conversationId: conversation.conversationId,
        status: conversation.status,
        locale: conversation.locale,
        createdAt: conversation.createdAt,
        updatedAt: conversation.updatedAt,
        closedBy: conversation.closedBy ?? null,
        satisfaction: (await ratings.satisfactionOf(conversation.conversationId))?.score ?? null,
      };
    },
  );

  router.put(
    '/chat/conversations/{conversationId}/messages/{messageId}/feedback',
    {
      summary: 'Rate an AI answer',
      description:
        'Rates an AI answer of this conversation (an `ai` message with outcome `answered` or `unknown`) `up` or `down`, with an optional `reason` (at most 500 characters; meant for `down`, kept with `up` too). ' +
        'Rating again replaces the rating and its reason (a rating without a reason clears it); the counts move with it. Open and closed conversations alike. ' +
        'Another message (a visitor message, a greeting, a notice, another conversation’s): 404. ' +
        ratingBudgets,
      headers: [visitorTokenHeader],
      body: answerFeedbackRequest,
      responses: { 200: { description: 'The rating as stored', schema: answerFeedbackResponse } },
      errors: [404],
    },
    ...rating,
    async (ctx) => {
      const { conversation } = ctx.state;
      const messageId = ctx.params.messageId!;
      const { rating: given, reason } = ctx.request.body;
      const rated = await ratings.rateAnswer({
        conversationId: conversation.conversationId,
        messageId,
        rating: given,
        ...(reason === undefined ? {} : { reason }),
      });
      if (!rated) throw notFound(`No AI answer ${messageId} in this conversation.`);
      ctx.body = rated;
    },
  );

  router.put(
    '/chat/conversations/{conversationId}/satisfaction',
    {
      summary: 'Score the conversation',
      description:
        'After an agent closed the conversation, the visitor may score it from 1 to 5; scoring again replaces the score. Before that (open, closed idle): 409 `not_closed_by_agent`. ' +
        ratingBudgets,
      headers: [visitorTokenHeader],
      body: satisfactionRequest,
      responses: { 200: { description: 'The score as stored', schema: satisfactionResponse } },
      errors: [404, 409],
    },
    ...rating,
    async (ctx) => {
      const { conversation } = ctx.state;
      const rated = await ratings.rateSatisfaction({
        conversationId: conversation.conversationId,
        score: ctx.request.body.score,
      });
      if (rated === 'not_closed_by_agent') throw notClosedByAgent();
      if (rated === 'not_found') throw notFound(`No conversation ${conversation.conversationId}.`);
      ctx.body = rated;
    },
  );

  return router;
}
