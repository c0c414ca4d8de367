import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { Operator } from '#tenancy/operators.js';
import { generateSecret, hashSecret } from '#tenancy/secrets.js';
import type { ChatMessage } from './chat-message.js';
import { userIdHash, type ConversationRecord, type ConversationRecords } from './records.js';
import { conversationKeys } from './redis-keys.js';
import type { Transcript } from './transcript.js';
import type { VerifiedVisitor } from './visitor-identity.js';

/** How long a verified visitor's session lasts. */
export const identitySessionSeconds = 12 * 3600;
/** The most earlier conversations listed, newest first. */
export const earlierConversationsListed = 20;
/** The most characters of a conversation's title (the visitor's first message). */
export const conversationTitleChars = 120;

/** A verified visitor of one operator, as a session token vouches for them. */
export interface IdentitySession extends VerifiedVisitor {
  tenantId: string;
  operatorId: string;
}

export interface EarlierConversation {
  conversationId: string;
  status: ConversationRecord['status'];
  createdAt: string;
  updatedAt: string;
  /** The visitor's first message, at most `conversationTitleChars` of it; null before they wrote one. */
  title: string | null;
  /** The newest message of its transcript, null when it has none. */
  lastMessage: ChatMessage | null;
}

export interface VerifiedVisitorsDeps {
  redis: Pick<RedisClient, 'set' | 'get' | 'zRange'>;
  prefix: string;
  records: Pick<ConversationRecords, 'get'>;
  transcript: Pick<Transcript, 'last' | 'firstBy'>;
}

/**
 * What a verified visitor may do from any device: a session (a random token, only its hash kept,
 * for `identitySessionSeconds`) that opens their conversations with this operator, and the list of
 * those conversations. The list comes from the index `records.ts` keeps per operator and user id,
 * and every record is checked again: same tenant, same operator, verified as the same user.
 */
export function createVerifiedVisitors({ redis, prefix, records, transcript }: VerifiedVisitorsDeps) {
  const keys = conversationKeys(prefix);

  return tagUnavailable('redis', {
    async openSession(
      operator: Pick<Operator, 'id' | 'tenantId'>,
      visitor: VerifiedVisitor,
    ): Promise<{ visitorToken: string; expiresInSeconds: number }> {
      const visitorToken = generateSecret('visitorSession');
      const session: IdentitySession = { ...visitor, tenantId: operator.tenantId, operatorId: operator.id };
      await redis.set(keys.identitySession(hashSecret(visitorToken)), JSON.stringify(session), { EX: identitySessionSeconds });
      return { visitorToken, expiresInSeconds: identitySessionSeconds };
    },

    /** The session of a token, or undefined (unknown, expired, or not a session token). */
    async sessionOf(visitorToken: string): Promise<IdentitySession | undefined> {
      if (!visitorToken.startsWith('kb_vs_')) return undefined;
      const stored = await redis.get(keys.identitySession(hashSecret(visitorToken)));
      return stored ? (JSON.parse(stored) as IdentitySession) : undefined;
    },

    /** The visitor's conversations with the session's operator, newest first. */
    async conversationsOf(session: IdentitySession): Promise<EarlierConversation[]> {
      const ids = await redis.zRange(
        keys.ofVerifiedVisitor(session.operatorId, userIdHash(session.userId)),
        0,
        earlierConversationsListed - 1,
        {
          REV: true,
        },
      );
      const listed: EarlierConversation[] = [];
      for (const id of ids) {
        const record = await records.get(id);
        if (!record || !belongsToSession(record, session)) continue;
        const first = await transcript.firstBy(id, 'visitor');
        listed.push({
          conversationId: id,
          status: record.status,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
          title: first ? first.text.slice(0, conversationTitleChars) : null,
          lastMessage: (await transcript.last(id)) ?? null,
        });
      }
      return listed;
    },
  });
}

/** Whether the session's visitor is the verified visitor of this conversation, with the same tenant and operator. */
export function belongsToSession(record: ConversationRecord, session: IdentitySession | undefined): boolean {
  return (
    session !== undefined &&
    record.tenantId === session.tenantId &&
    record.operatorId === session.operatorId &&
    record.contact.verified === true &&
    record.contact.userId === session.userId
  );
}

export type VerifiedVisitors = ReturnType<typeof createVerifiedVisitors>;
