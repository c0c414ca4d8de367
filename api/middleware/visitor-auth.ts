import type { Middleware } from 'koa';
import { isConversationId, type ConversationRecords } from '#conversations/records.js';
import { hashSecret, secretsEqual } from '#tenancy/secrets.js';
import { forbidden, notFound, unauthorized } from '../errors.js';
import type { ChatState, VisitorState } from '../state.js';

/**
 * Loads the conversation of the path and checks that the caller is its visitor: the conversation
 * belongs to the authenticated operator and `x-visitor-token` is the token it was started with.
 * 404 when the id is not a conversation id (a UUID) or exists nowhere; 403 when it belongs to someone
 * else or the token does not match.
 */
export function requireVisitor(records: Pick<ConversationRecords, 'get'>): Middleware<ChatState> {
  return async function requireVisitor(ctx, next) {
    const visitorToken = ctx.get('x-visitor-token');
    if (!visitorToken)
      throw unauthorized('Missing visitor token: send the one the conversation was started with in x-visitor-token.');
    const conversationId = (ctx as unknown as { params: Record<string, string> }).params.conversationId!;
    const conversation = isConversationId(conversationId) ? await records.get(conversationId) : undefined;
    if (!conversation) throw notFound(`No conversation ${conversationId}.`);
    const sameOperator =
      conversation.tenantId === ctx.state.operator.tenantId && conversation.operatorId === ctx.state.operator.id;
    if (!sameOperator || !secretsEqual(hashSecret(visitorToken), conversation.visitorTokenHash))
      throw forbidden('This conversation belongs to another visitor.');
    (ctx.state as VisitorState).conversation = conversation;
    await next();
  };
}
