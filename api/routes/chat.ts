import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { stringsFor } from '#answering/locales.js';
import { resolveLocale } from '#workflows/locales.js';
import { isEventId, type EventFollower } from '#conversations/events.js';
import type { ConversationRecords } from '#conversations/records.js';
import type { StartWidgetConversation } from '#conversations/start.js';
import type { Transcript } from '#conversations/transcript.js';
import { ConversationClosedError, type ConversationClient } from '#conversations/workflow-client.js';
import type { Tenancy } from '#tenancy/index.js';
import type { AnswerBudget } from '#conversations/answer-budget.js';
import type { Contact } from '#conversations/records.js';
import type { VerifiedVisitors } from '#conversations/verified-visitors.js';
import type { Ratings } from '#insights/ratings.js';
import { answerBudgetExhausted, conversationClosed, invalidPayload, rateLimited } from '../errors.js';
import { clientAddressOf } from '../client-address.js';
import { followThenAct, type EventStreams, type StreamCap } from '../server-sent-events.js';
import { requireOperator } from '../middleware/operator-auth.js';
import type { ChatRateLimits } from '../middleware/chat-rate-limits.js';
import { visitorIdentityChecks, type VisitorIdentityDeps } from '../middleware/visitor-identity.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import {
  configQuery,
  conversationResponse,
  eventStreamSchema,
  handoffResponse,
  historyResponse,
  identityConversationsResponse,
  identityRequest,
  identityResponse,
  sendMessageRequest,
  startConversationRequest,
  widgetConfigResponse,
} from '../schemas/chat.js';
import type { ChatState, VisitorState } from '../state.js';
import { visitorGuards, visitorTokenHeader } from './chat-visitor.js';

/** Each conversation's and each client address's daily share of an operator's AI answers. */
export interface AnswerShares {
  answersPerAddressPerDay: number;
  answersPerConversationPerDay: number;
}

export interface ChatRouterDeps {
  tenancy: Pick<Tenancy, 'findOperatorByKey'>;
  records: ConversationRecords;
  transcript: Transcript;
  /** Each rated answer's feedback, shown with the transcript. */
  ratings: Pick<Ratings, 'withFeedback'>;
  follower: EventFollower;
  conversations: ConversationClient;
  startConversation: StartWidgetConversation;
  /** Verified visitors: their identity tokens, sessions and earlier conversations (docs/widget.md). */
  identity: VisitorIdentityDeps & { verifiedVisitors: Pick<VerifiedVisitors, 'sessionOf' | 'openSession' | 'conversationsOf'> };
  /**
   * Budgets: all visitors of one operator together; each visitor by their conversation, and by their
   * address for the requests before they have one.
   */
  rateLimits: ChatRateLimits;
  /** Each operator's AI answers per UTC day. */
  answerBudget: Pick<AnswerBudget, 'spend' | 'spendShare'>;
  settings: { replyTimeoutMs: number } & AnswerShares;
  streams: EventStreams;
  /** Open event streams at most, per conversation and per client address. */
  streamCaps: { perConversation: number; perAddress: number };
}

/**
 * The public chat API the widget talks to: its configuration, conversations, messages with the
 * answer streamed as server-sent events, the history, asking for a person, and following the
 * conversation (agent replies, status changes) as events.
 */
export function createChatRouter({
  tenancy,
  records,
  transcript,
  ratings,
  follower,
  conversations,
  startConversation,
  identity,
  rateLimits,
  answerBudget,
  settings,
  streams,
  streamCaps,
}: ChatRouterDeps) {
  const { verifiedVisitors } = identity;
  const { verifiedBy, sessionOf, startingVisitor, verifiedWhenRequired } = visitorIdentityChecks(identity);
  const router = new DocumentedRouter<ChatState>({ tags: ['Chat'], security: 'operatorKey', errors: [401, 403, 429, 503] });
  router.use(requireOperator(tenancy));
  // The operator's budget, shared by all its visitors, is spent last: a request refused by its own
  // address's or visitor's budget, or by the visitor's token, costs the other visitors nothing.
  const { perOperator } = rateLimits;
  const widgetStart = [rateLimits.configPerAddress, perOperator] as const;
  const newConversation = [rateLimits.perAddress, rateLimits.conversationsPerHour, perOperator] as const;
  // The routes of one conversation: their handlers see the VisitorState these leave.
  const visitor = visitorGuards({ records, verifiedVisitors, rateLimits, verifiedWhenRequired });
  const capsOf = (conversationId: string, address: string): StreamCap[] => [
    { key: `conversation:${conversationId}`, max: streamCaps.perConversation, subject: 'this conversation' },
    { key: `address:${address}`, max: streamCaps.perAddress, subject: 'this address' },
  ];

  /**
   * A message the AI is to answer spends one of its conversation's and its address's shares of today's answers,
   * then one of the operator's: one address cannot spend the operator's day (finding G1 of the 2026-11b review).
   */
  const withinAnswerBudget: Middleware<VisitorState> = async (ctx, next) => {
    if (ctx.state.conversation.status === 'ai') {
      const { operator, conversation } = ctx.state;
      const shares = [
        {
          share: `conversation:${conversation.conversationId}`,
          perDay: settings.answersPerConversationPerDay,
          subject: "this conversation's AI answers today",
        },
        {
          share: `address:${operator.id}:${clientAddressOf(ctx)}`,
          perDay: settings.answersPerAddressPerDay,
          subject: "this address's AI answers today",
        },
      ];
      for (const { share, perDay, subject } of shares) {
        const spent = await answerBudget.spendShare(share, perDay);
        if (!spent.allowed) throw rateLimited(spent.retryAfterSeconds, subject, 'answers-share');
      }
      const { allowed, retryAfterSeconds } = await answerBudget.spend(operator.id);
      if (!allowed) throw answerBudgetExhausted(retryAfterSeconds);
    }
    await next();
  };

  router.get(
    '/chat/config',
    {
      summary: "The widget's configuration",
      description:
        'The operator name, greeting and the fixed AI notice, in the widget locale when given (else the operator locale), and whether the operator requires verified visitors (`identityRequired`).',
      query: configQuery,
      responses: { 200: { description: 'The configuration', schema: widgetConfigResponse } },
    },
    ...widgetStart,
    async (ctx) => {
      const { operator } = ctx.state;
      const locale = resolveLocale(ctx.state.query.locale ?? operator.locale);
      const strings = stringsFor(locale);
      ctx.body = {
        operatorId: operator.id,
        name: operator.name,
        greeting: strings.greeting(operator.name),
        locale,
        aiNotice: strings.aiNotice,
        identityRequired: await identity.identities.isRequired(operator),
      };
    },
  );

  router.post(
    '/chat/conversations',
    {
      summary: 'Start a conversation',
      description:
        'The visitor is identified by `contact` (all optional, as the page claims it), or verified by `identityToken` (or the verified session of `POST /chat/identity` in x-visitor-token): then the contact is `verified`, with the user id, name and e-mail of the token over what the page claims. ' +
        "A token that does not verify (forged, expired, not yet valid beyond 60 s of skew, another operator's, used before): 401 `identity_invalid`; no token while the operator requires verification: 403 `identity_required`. " +
        'The answer holds the `visitorToken` (only here) and the greeting. A widget conversation closes after the idle timeout.',
      headers: [
        {
          name: 'x-visitor-token',
          required: false,
          description: 'A verified visitor session (`POST /chat/identity`) instead of an identity token.',
        },
      ],
      body: startConversationRequest,
      responses: { 201: { description: 'The conversation', schema: conversationResponse } },
    },
    ...newConversation,
    async (ctx) => {
      const { operator } = ctx.state;
      const { body } = ctx.request;
      const verified = await startingVisitor(ctx, body.identityToken);
      const contact: Contact = verified ? { ...body.contact, ...verified, verified: true } : { ...body.contact };
      const { ref, record, visitorToken, greeting } = await startConversation(operator, {
        contact,
        locale: body.locale,
      });
      ctx.status = 201;
      ctx.body = {
        conversationId: ref.conversationId,
        visitorToken,
        status: record.status,
        locale: ref.locale,
        createdAt: record.createdAt,
        messages: [greeting],
      };
    },
  );

  router.post(
    '/chat/identity',
    {
      summary: "A verified visitor's earlier conversations",
      description:
        'Verifies the identity token (taken once, like any) and answers with a session for this verified visitor and their conversations with this operator, newest first: ' +
        'send the session as x-visitor-token to read, follow and continue any of them from this device, or to start a new verified conversation. ' +
        "Forged, expired or replayed tokens: 401 `identity_invalid`. Other operators' and tenants' conversations are never listed.",
      body: identityRequest,
      responses: { 201: { description: 'The session and the conversations', schema: identityResponse } },
    },
    rateLimits.perAddress,
    perOperator,
    async (ctx) => {
      const { operator } = ctx.state;
      const verified = await verifiedBy(operator, ctx.request.body.identityToken);
      const session = await verifiedVisitors.openSession(operator, verified);
      ctx.status = 201;
      ctx.body = {
        ...session,
        userId: verified.userId,
        conversations: await verifiedVisitors.conversationsOf({
          ...verified,
          operatorId: operator.id,
          tenantId: operator.tenantId,
        }),
      };
    },
  );

  router.get(
    '/chat/identity/conversations',
    {
      summary: "A verified visitor's conversations, again",
      description:
        "The list of `POST /chat/identity` again, for the verified session sent as x-visitor-token (no identity token spent): the visitor's conversations with this operator, newest first. " +
        "A session unknown, expired, or another operator's: 401 `identity_invalid` (`session_invalid`).",
      headers: [
        { name: 'x-visitor-token', required: true, description: 'The verified visitor session of `POST /chat/identity`.' },
      ],
      responses: { 200: { description: 'The conversations', schema: identityConversationsResponse } },
    },
    rateLimits.perAddress,
    perOperator,
    async (ctx) => {
      const session = await sessionOf(ctx);
      ctx.body = { userId: session.userId, conversations: await verifiedVisitors.conversationsOf(session) };
    },
  );

  router.get(
    '/chat/conversations/{conversationId}/messages',
    {
      summary: 'Read the conversation',
      headers: [visitorTokenHeader],
      responses: { 200: { description: 'Every message, oldest first', schema: historyResponse } },
      errors: [404],
    },
    ...visitor,
    async (ctx) => {
      const { conversation } = ctx.state;
      ctx.body = {
        conversationId: conversation.conversationId,
        status: conversation.status,
        messages: await ratings.withFeedback(conversation.conversationId, await transcript.read(conversation.conversationId)),
      };
    },
  );

  router.post(
    '/chat/conversations/{conversationId}/messages',
    {
      summary: 'Send a message and stream the answer',
      description:
        'Answers with server-sent events: `accepted`, then the AI answer as `token` events, its `citations` and `done` (while a person has the conversation, `done` comes at once with no message). The message is kept even when the stream ends early; the answer then arrives in the conversation. ' +
        "Each message the AI is to answer spends one of its conversation's and its address's daily shares (CHAT_ANSWERS_PER_CONVERSATION_PER_DAY, CHAT_ANSWERS_PER_ADDRESS_PER_DAY: 429 `rate_limited` past one), then one of the operator's answers for the UTC day (OPERATOR_ANSWERS_PER_DAY): once they are spent, 429 `answer_budget_exhausted`; both with `Retry-After` until midnight UTC, and the message is not kept (asking for a person still works).",
      headers: [visitorTokenHeader],
      body: sendMessageRequest,
      responses: { 200: { description: 'The event stream', schema: eventStreamSchema, contentType: 'text/event-stream' } },
      errors: [404, 409],
    },
    ...visitor,
    withinAnswerBudget,
    async (ctx) => {
      const { conversation } = ctx.state;
      if (conversation.status === 'closed') throw conversationClosed();
      const { text, messageId = randomUUID() } = ctx.request.body;

      const replyEvents = new Set(['token', 'reset', 'citations', 'done']);
      // Taken first: a full cap refuses before the message is sent, and a client gone stops the following.
      const stream = streams.open(ctx, capsOf(conversation.conversationId, clientAddressOf(ctx)));
      // Follow before sending, so no part of the answer can come before the follower listens.
      await followThenAct(
        stream,
        {
          follower,
          conversationId: conversation.conversationId,
          after: 'now',
          picks: (event) => replyEvents.has(event.type) && 'replyTo' in event && event.replyTo === messageId,
          withIds: false,
          endsWith: 'done',
        },
        async () => {
          try {
            await conversations.sendVisitorMessage(conversation, { messageId, text });
          } catch (error) {
            throw error instanceof ConversationClosedError ? conversationClosed() : error;
          }
          return [{ event: 'accepted', data: { messageId } }];
        },
      );
      if (stream.ended) return;
      const timeout = setTimeout(() => {
        stream.send('error', {
          error: {
            code: 'reply_delayed',
            message: 'The answer is taking longer than usual; it will appear in the conversation.',
          },
        });
        stream.end();
      }, settings.replyTimeoutMs);
      stream.onEnd(() => clearTimeout(timeout));
    },
  );

  router.post(
    '/chat/conversations/{conversationId}/handoff',
    {
      summary: 'Ask for a person',
      description:
        'Moves the conversation to `waiting_for_agent` (202); the AI stops answering. When a person is already waiting or chatting, nothing changes (200).',
      headers: [visitorTokenHeader],
      responses: {
        200: { description: 'Already with a person', schema: handoffResponse },
        202: { description: 'Handoff requested', schema: handoffResponse },
      },
      errors: [404, 409],
    },
    ...visitor,
    async (ctx) => {
      const { conversation } = ctx.state;
      if (conversation.status === 'closed') throw conversationClosed();
      if (conversation.status !== 'ai') {
        ctx.body = { status: conversation.status };
        return;
      }
      try {
        await conversations.requestHandoff(conversation);
      } catch (error) {
        throw error instanceof ConversationClosedError ? conversationClosed() : error;
      }
      ctx.status = 202;
      ctx.body = { status: 'waiting_for_agent' };
    },
  );

  router.get(
    '/chat/conversations/{conversationId}/events',
    {
      summary: 'Follow the conversation',
      description:
        "Server-sent events of everything that happens from now on (or after `Last-Event-ID`): new messages (an agent's replies too), status changes, and the AI's tokens while it answers.",
      headers: [visitorTokenHeader, { name: 'Last-Event-ID', required: false, description: 'Resume after this event id.' }],
      responses: { 200: { description: 'The event stream', schema: eventStreamSchema, contentType: 'text/event-stream' } },
      errors: [400, 404],
    },
    ...visitor,
    async (ctx) => {
      const { conversation } = ctx.state;
      const lastEventId = ctx.get('last-event-id');
      if (lastEventId && !isEventId(lastEventId))
        throw invalidPayload('Last-Event-ID is not an event id of this stream.', [
          { path: 'Last-Event-ID', message: 'must look like 1700000000000-0' },
        ]);
      const stream = streams.open(ctx, capsOf(conversation.conversationId, clientAddressOf(ctx)));
      await followThenAct(
        stream,
        {
          follower,
          conversationId: conversation.conversationId,
          after: lastEventId || 'now',
          picks: () => true,
          withIds: true,
        },
        async () => [],
      );
    },
  );

  return router;
}
