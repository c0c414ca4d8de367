import type { Context } from 'koa';
import type { RedisClient } from '#platform/redis.js';
import { rateLimitBy } from './rate-limit.js';
import type { ChatState, VisitorState } from '../state.js';

/**
 * The chat API's budgets, counted in Redis: all visitors of one operator's widget together, each
 * visitor by their conversation, and each address for the requests before it has one.
 */
export function chatRateLimits(
  redis: RedisClient,
  options: { prefix: string; visitorPerMinute: number; operatorPerMinute: number },
) {
  const budget = <State>(name: string, perMinute: number, keyOf: (ctx: Context & { state: State }) => string, subject: string) =>
    rateLimitBy<State>(redis, { prefix: options.prefix, name, perMinute, keyOf, subject });
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
    perAddress: budget<ChatState>('visitor-address', options.visitorPerMinute, (ctx) => ctx.ip, 'this address'),
  };
}
