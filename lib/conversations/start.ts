import { randomUUID } from 'node:crypto';
import { resolveLocale } from '#workflows/locales.js';
import type { Operator } from '#tenancy/operators.js';
import { generateSecret, hashSecret } from '#tenancy/secrets.js';
import type { ConversationRef, ConversationTimers } from '#workflows/conversations/types.js';
import type { ChatMessage } from './chat-message.js';
import { greetingMessage } from './messages.js';
import type { Contact, ConversationRecord, ConversationRecords } from './records.js';
import type { Transcript } from './transcript.js';
import type { ConversationClient } from './workflow-client.js';

export interface WidgetConversationStartDeps {
  records: Pick<ConversationRecords, 'create' | 'remove'>;
  transcript: Pick<Transcript, 'append'>;
  conversations: Pick<ConversationClient, 'start'>;
  timers: ConversationTimers;
  /** Told once the conversation has started, its greeting sent (the operator's `started:widget` counter). */
  started: (ref: ConversationRef) => Promise<unknown>;
}

export interface StartedConversation {
  ref: ConversationRef;
  record: ConversationRecord;
  /** The visitor's secret for this conversation: handed out once, only its hash is kept. */
  visitorToken: string;
  greeting: ChatMessage;
}

/**
 * Starts a widget visitor's conversation: its record, its workflow, then the greeting. A workflow
 * that cannot be started leaves no record behind: no workflow, no conversation.
 */
export function createWidgetConversationStart({
  records,
  transcript,
  conversations,
  timers,
  started,
}: WidgetConversationStartDeps) {
  return async function startWidgetConversation(
    operator: Pick<Operator, 'id' | 'tenantId' | 'knowledgeBaseId' | 'name' | 'locale'>,
    visitor: { contact: Contact; locale?: string },
  ): Promise<StartedConversation> {
    const visitorToken = generateSecret('visitorToken');
    const locale = resolveLocale(visitor.locale ?? operator.locale);
    const ref: ConversationRef = {
      conversationId: randomUUID(),
      tenantId: operator.tenantId,
      operatorId: operator.id,
      knowledgeBaseId: operator.knowledgeBaseId,
      channel: 'widget',
      locale,
    };
    const record = await records.create({ ...ref, visitorTokenHash: hashSecret(visitorToken), contact: visitor.contact });
    const greeting = greetingMessage({ operatorName: operator.name, locale, createdAt: record.createdAt });
    try {
      await conversations.start(ref, timers);
    } catch (error) {
      await records.remove(record).catch(() => undefined);
      throw error;
    }
    // The visitor can send nothing before they hold the token, so the greeting still comes first.
    await transcript.append(ref.conversationId, greeting);
    await started(ref);
    return { ref, record, visitorToken, greeting };
  };
}

export type StartWidgetConversation = ReturnType<typeof createWidgetConversationStart>;
