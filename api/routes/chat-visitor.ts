import type { Middleware } from 'koa';
import type { ConversationRecords } from '#conversations/records.js';
import type { VerifiedVisitors } from '#conversations/verified-visitors.js';
import type { ChatRateLimits } from '../middleware/chat-rate-limits.js';
import { requireVisitor } from '../middleware/visitor-auth.js';
import type { ChatState, VisitorState } from '../state.js';

/** The visitor's token, as every route of one conversation documents it. */
export const visitorTokenHeader = {
  name: 'x-visitor-token',
  required: true,
  description: 'The token the conversation was started with.',
};

/**
 * What every route of one conversation runs before its handler, in this order: the visitor's token
 * (refusals counted per address), the visitor's budgets, their address's, then the operator's, spent last so that a
 * refused request costs the operator's other visitors nothing, and a verified-only operator's rule.
 * `extra` budgets (the ratings') are spent beside the visitor's and the operator's own.
 */
export function visitorGuards(
  {
    records,
    verifiedVisitors,
    rateLimits,
    verifiedWhenRequired,
  }: {
    records: Pick<ConversationRecords, 'get'>;
    verifiedVisitors: Pick<VerifiedVisitors, 'sessionOf'>;
    rateLimits: ChatRateLimits;
    verifiedWhenRequired: Middleware<VisitorState>;
  },
  extra: { perVisitor?: Middleware<VisitorState>; perOperator?: Middleware<ChatState> } = {},
) {
  return [
    rateLimits.refusedVisitors(requireVisitor(records, verifiedVisitors)),
    rateLimits.perVisitor,
    ...(extra.perVisitor ? [extra.perVisitor] : []),
    rateLimits.conversationsPerAddress,
    rateLimits.perOperator,
    ...(extra.perOperator ? [extra.perOperator] : []),
    verifiedWhenRequired,
  ] as const;
}
