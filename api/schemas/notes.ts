/** Agents' private notes on conversations, and the notifications their mentions make (docs/agent-inbox.md). */

import { notificationsKept } from '#conversations/notifications.js';
import { objectOf, timestamp, uuid } from './common.js';
import { textPatterns } from './text-patterns.js';

export const noteLimits = { textChars: 4_096, mentions: 20, readIds: notificationsKept } as const;

const person = objectOf({ userId: uuid, name: { type: 'string' } });

export const noteRequest = objectOf(
  {
    text: {
      type: 'string',
      minLength: 1,
      maxLength: noteLimits.textChars,
      pattern: textPatterns.notBlank.pattern,
      description:
        "The note. `@` and a colleague's full name or e-mail address (`@Ada Lovelace`, `@ada@shop.example`) mentions them; a `@word` naming no active user is only text.",
    },
    noteId: {
      ...uuid,
      description: 'Optional idempotency key: a note sent again with the same id is stored once (and answered 200).',
    },
    mentions: {
      type: 'array',
      maxItems: noteLimits.mentions,
      uniqueItems: true,
      items: uuid,
      description:
        'Users to mention besides those the text names: each must be an active user of the tenant (400 `invalid_payload` naming the one that is not).',
    },
  },
  ['noteId', 'mentions'],
);

export const noteResponse = objectOf({
  id: uuid,
  conversationId: uuid,
  text: { type: 'string' },
  createdAt: timestamp,
  author: person,
  mentions: { type: 'array', items: person, description: 'Who the note mentions (each notified, but its author).' },
  private: { const: true, description: 'Always true: a note never reaches the customer.' },
});

export const noteListResponse = objectOf({
  notes: { type: 'array', items: noteResponse, description: 'Oldest first.' },
});

/** A note as the agent's transcript shows it, among the messages (`api/schemas/agent.ts`). */
export const noteMessageProperties = {
  private: {
    const: true,
    description:
      "A private entry of the agents' transcript, for the tenant's people only and never sent to the customer: an agent's note (author `agent`), or a change of assignment (author `system`).",
  },
  mentions: { type: 'array', items: person, description: 'On a note: the colleagues it mentions.' },
} as const;

export const notification = objectOf({
  id: { type: 'string', pattern: '^ntf_[0-9a-f]{24}$' },
  type: { const: 'mention', description: '`mention`: a colleague mentioned you in a note.' },
  conversationId: uuid,
  noteId: uuid,
  by: person,
  excerpt: { type: 'string', description: "The note's beginning (200 characters at most)." },
  createdAt: timestamp,
  read: { type: 'boolean' },
});

export const notificationListResponse = objectOf({
  notifications: {
    type: 'array',
    items: notification,
    description: `Newest first; the latest ${notificationsKept} are kept.`,
  },
  unread: { type: 'integer', minimum: 0 },
});

export const notificationsReadRequest = objectOf(
  {
    ids: {
      type: 'array',
      maxItems: noteLimits.readIds,
      items: { type: 'string', pattern: '^ntf_[0-9a-f]{24}$' },
      description: 'The notifications to mark read; left out, all of them. Ids that are not yours change nothing.',
    },
  },
  ['ids'],
);

export const notificationsReadResponse = objectOf({ unread: { type: 'integer', minimum: 0 } });
