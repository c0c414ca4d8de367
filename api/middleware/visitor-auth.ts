import type { Middleware } from 'koa';
import { isConversationId, type ConversationRecords } from '#conversations/records.js';
import { belongsToSession, type VerifiedVisitors } from '#conversations/verified-visitors.js';
import { hashSecret, secretsEqual } from '#tenancy/secrets.js';
import { forbidden, notFound, unauthorized } from '../errors.js';
import type { ChatState, VisitorState } from '../state.js';

/**
 * Loads the conversation of the path and checks that the caller is its visitor: the conversation
 * belongs to the authenticated operator and `x-visitor-token` is the token it was started with, or
 * the session of the verified visitor it belongs to (`POST /chat/identity`, from any device).
 * 404 when the id is not a conversation id (a UUID) or exists nowhere; 403 when it belongs to someone
 * else or the token does not match.
 */
export function requireVisitor(
  records: Pick<ConversationRecords, 'get'>,
  verifiedVisitors: Pick<VerifiedVisitors, 'sessionOf'>,
): Middleware<ChatState> {
  return async function requireVisitor(ctx, next) {
    const visitorToken = ctx.get('x-visitor-token');
    if (!visitorToken)
      throw unauthorized('Missing visitor token: send the one the conversation was started with in x-visitor-token.');
    const conversationId = (ctx as unknown as { params: Record<string, string> }).params.conversationId!;
    const conversation = isConversationId(conversationId) ? await records.get(conversationId) : undefined;
    if (!conversation) throw notFound(`No conversation ${conversationId}.`);
    const { operator } = ctx.state;
    const sameOperator = conversation.tenantId === operator.tenantId && conversation.operatorId === operator.id;
    const isVisitor =
      secretsEqual(hashSecret(visitorToken), conversation.visitorTokenHash) ||
      belongsToSession(conversation, await verifiedVisitors.sessionOf(visitorToken));
    if (!sameOperator || !isVisitor) throw forbidden('This conversation belongs to another visitor.');
    (ctx.state as VisitorState).conversation = conversation;
    await next();
  };
}
