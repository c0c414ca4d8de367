import type { Tenancy } from '#tenancy/index.js';
import { resolveMentions } from './mentions.js';
import type { NotePerson, Notes, PrivateNote } from './notes.js';
import type { Notifications } from './notifications.js';
import type { SearchChanges } from './search/changes.js';

export interface NoteWritingDeps {
  notes: Pick<Notes, 'add'>;
  notifications: Pick<Notifications, 'mentioned'>;
  /** The tenant's users: whom a note may mention. */
  users: Pick<Tenancy, 'listUsers'>;
  /** The conversation search takes the note in (docs/agent-inbox.md, "Conversation search"). */
  searchChanges: Pick<SearchChanges, 'markChanged'>;
  now?: () => Date;
}

export interface NoteInput {
  text: string;
  /** The idempotency key: the same id again answers the first note. */
  noteId: string;
  /** Users to mention besides those the text names with `@`. */
  mentions?: string[];
}

/**
 * Writes an agent's private note on a conversation of their tenant: its mentions resolved among the
 * tenant's active users (an unknown id is `UnknownMentionError`), the note stored apart from the
 * transcript, and each colleague it mentions notified. The notifying runs again on a retry of the same
 * note (it adds nothing twice), so a note stored by a request that failed before it notified still
 * notifies when it is sent again.
 */
export function createNoteWriter({ notes, notifications, users, searchChanges, now = () => new Date() }: NoteWritingDeps) {
  return {
    async write(
      conversation: { conversationId: string; tenantId: string },
      author: NotePerson,
      input: NoteInput,
    ): Promise<{ note: PrivateNote; created: boolean }> {
      const mentions = resolveMentions(input.text, input.mentions ?? [], await users.listUsers(conversation.tenantId));
      const written = await notes.add({
        id: input.noteId,
        conversationId: conversation.conversationId,
        text: input.text,
        createdAt: now().toISOString(),
        author,
        mentions,
      });
      await searchChanges.markChanged(conversation.tenantId, conversation.conversationId);
      await notifications.mentioned(written.note);
      return written;
    },
  };
}

export type NoteWriter = ReturnType<typeof createNoteWriter>;
