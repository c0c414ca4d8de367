import type { ChatMessage } from '../chat-message.js';
import type { ConversationRecord } from '../records.js';

/**
 * One conversation as the search index keeps it: one Weaviate object per conversation (not per
 * message), so a filter on what changes over its life (status, team, agent, rating) is one object's
 * property, rewritten with it, and a page of results never splits a conversation.
 */

/** Who wrote a searchable message: the visitor, the AI, an agent, or an agent's private note. */
export type SearchableAuthor = 'visitor' | 'ai' | 'agent' | 'note';

export interface SearchableMessage {
  id: string;
  author: SearchableAuthor;
  text: string;
  createdAt: string;
  /** The agent who wrote it (agents' messages and notes). */
  agentName?: string;
}

/** What the index's owner hands over for a conversation besides its transcript. */
export interface ConversationExtras {
  /** The agents' private notes (`lib/conversations/notes.ts`), searchable by agents only. */
  notes: SearchableMessage[];
  /** The visitor's 1–5 satisfaction score, or null. */
  rating: number | null;
}

export interface ConversationDocument {
  tenantId: string;
  conversationId: string;
  operatorId: string;
  status: string;
  channel: string;
  /** '' when none: Weaviate filters cannot ask for a missing property's absence cheaply. */
  teamId: string;
  /** The assigned agent and the agent who has it, without repeats (the `agentId` filter matches either). */
  agentIds: string[];
  createdAt: Date;
  /** The later of the record's last change and the newest message: what the date range bounds. */
  lastActivityAt: Date;
  /** 0 when unrated. */
  rating: number;
  /** The contact's name and e-mail: searchable too. */
  contact: string;
  /** Each message's text, in order: what BM25 searches. */
  texts: string[];
  /** The messages themselves (JSON), not indexed: where the snippets come from. */
  messages: string;
}

/**
 * The most of a conversation's text the index keeps: past it, the oldest messages are left out
 * (a conversation of a few hundred messages fits whole).
 */
export const maxIndexedChars = 100_000;

/** The transcript's messages that are searched: the greeting, notices and feedback asks (system) are not. */
function searchable(message: ChatMessage): SearchableMessage | undefined {
  if (message.author === 'system' || !message.text.trim()) return undefined;
  return {
    id: message.id,
    author: message.author,
    text: message.text,
    createdAt: message.createdAt,
    ...(message.agent ? { agentName: message.agent.name } : {}),
  };
}

/** Read as optional: the lead adds `teamId` and `assigneeId` to the record. */
type RecordWithTeams = ConversationRecord & { teamId?: string; assigneeId?: string };

export function conversationDocument(
  record: ConversationRecord,
  transcript: ChatMessage[],
  extras: ConversationExtras,
): ConversationDocument {
  const withTeams = record as RecordWithTeams;
  const all = [...transcript.flatMap((message) => searchable(message) ?? []), ...extras.notes].sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  );
  // The newest messages that fit.
  const kept: SearchableMessage[] = [];
  let chars = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    chars += all[i]!.text.length;
    if (chars > maxIndexedChars && kept.length > 0) break;
    kept.unshift(all[i]!);
  }
  const newest = kept.at(-1)?.createdAt;
  const lastActivity =
    [record.updatedAt, record.createdAt, newest]
      .filter((at): at is string => !!at)
      .sort()
      .at(-1) ?? 0;
  const agentIds = [...new Set([withTeams.assigneeId, record.agentId].filter((id): id is string => !!id))];
  return {
    tenantId: record.tenantId,
    conversationId: record.conversationId,
    operatorId: record.operatorId,
    status: record.status,
    channel: record.channel,
    teamId: withTeams.teamId ?? '',
    agentIds,
    createdAt: new Date(record.createdAt || lastActivity),
    lastActivityAt: new Date(lastActivity),
    rating: extras.rating ?? 0,
    contact: [record.contact.name, record.contact.email].filter(Boolean).join(' '),
    texts: kept.map((message) => message.text),
    messages: JSON.stringify(kept),
  };
}
