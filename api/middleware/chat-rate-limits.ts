import type { Context, Middleware } from 'koa';
import type { RedisClient } from '#platform/redis.js';
import { clientAddressOf } from '../client-address.js';
import { limitRefusals, rateLimitBy } from './rate-limit.js';
import type { ChatState, VisitorState } from '../state.js';

export interface ChatBudgets {
  prefix: string;
  visitorPerMinute: number;
  operatorPerMinute: number;
  configPerMinute: number;
  conversationsPerHour: number;
  /** Requests per client address on the routes of conversations (each visitor's budget is spent first). */
  addressPerMinute: number;
  /** Ratings (answer feedback and satisfaction) per visitor and 10 minutes, and per operator and minute. */
  ratingsPerVisitor: number;
  ratingsOperatorPerMinute: number;
}

/** The window of each visitor's ratings: a conversation's worth of thumbs, changed minds included. */
export const ratingsWindowSeconds = 600;

/**
 * The chat API's budgets, counted in Redis: all visitors of one operator's widget together, each
 * visitor by their conversation, and each client address (an IPv6 /64) for the requests before it
 * has one. The operator's budget is shared by everyone on its widget, so the chat router spends it
 * last: only a request that passed its own address's or visitor's budget (and the visitor's token)
 * costs the other visitors anything.
 */
export function chatRateLimits(redis: RedisClient, options: ChatBudgets) {
  const budget = <State>(
    name: string,
    limit: number,
    keyOf: (ctx: Context & { state: State }) => string,
    subject: string,
    windowSeconds = 60,
  ) => rateLimitBy<State>(redis, { prefix: options.prefix, name, limit, keyOf, subject, windowSeconds });
  return {
    perOperator: budget<ChatState>(
      'operator',
      options.operatorPerMinute,
      (ctx) => ctx.state.operator.id,
      "this operator's widget",
    ),
    perVisitor: budget<VisitorState>(
      'visitor',
      options.visitorPerMinute,
      (ctx) => ctx.state.conversation.conversationId,
      'this visitor',
    ),
    /**
     * Every visitor behind one address on one operator's widget, on the routes of their conversations:
     * without it, conversations collected from one address (60 an hour, each with its own visitor budget)
     * would add up to the operator's whole budget (finding G1 of the 2026-11b review).
     */
    conversationsPerAddress: budget<VisitorState>(
      'conversation-address',
      options.addressPerMinute,
      (ctx) => `${ctx.state.operator.id}:${clientAddressOf(ctx)}`,
      'the visitors at this address',
    ),
    /** Starting conversations: each one is a record, a transcript and a workflow. */
    perAddress: budget<ChatState>('visitor-address', options.visitorPerMinute, clientAddressOf, 'this address'),
    /** The widget's configuration, asked at every page view: a cheap read, and many visitors may share an address. */
    configPerAddress: budget<ChatState>('config-address', options.configPerMinute, clientAddressOf, 'this address'),
    /** Conversations an address may start with one operator per hour, so junk ones cannot bury the inbox. */
    conversationsPerHour: budget<ChatState>(
      'conversations-hourly',
      options.conversationsPerHour,
      (ctx) => `${ctx.state.operator.id}:${clientAddressOf(ctx)}`,
      'new conversations from this address',
      3600,
    ),
    /** Ratings, on top of the visitor's requests: each writes and counts, so fewer than other requests. */
    ratingsPerVisitor: budget<VisitorState>(
      'ratings-visitor',
      options.ratingsPerVisitor,
      (ctx) => ctx.state.conversation.conversationId,
      "this visitor's ratings",
      ratingsWindowSeconds,
    ),
    /** All ratings on one operator's widget, spent last like the operator's other budget. */
    ratingsPerOperator: budget<ChatState>(
      'ratings-operator',
      options.ratingsOperatorPerMinute,
      (ctx) => ctx.state.operator.id,
      "ratings on this operator's widget",
    ),
    /**
     * Counts what the visitor's authentication refuses (an unknown conversation, a wrong token) per
     * address: guessing at conversations stops there, before it costs more reads.
     */
    refusedVisitors: (requireVisitor: Middleware<ChatState>) =>
      limitRefusals<ChatState>(
        redis,
        {
          prefix: options.prefix,
          name: 'refused-visitor',
          limit: options.visitorPerMinute,
          keyOf: clientAddressOf,
          subject: 'this address after refused visitor tokens',
        },
        requireVisitor,
      ),
  };
}

export type ChatRateLimits = ReturnType<typeof chatRateLimits>;
