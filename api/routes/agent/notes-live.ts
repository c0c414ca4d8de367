import {
  noteAsMessage,
  withNotes,
  type NoteFollower,
  type NoteMessage,
  type Notes,
  type PrivateNote,
} from '#conversations/notes.js';
import type { NotificationFollower, Notifications } from '#conversations/notifications.js';
import type { EventStream } from '#api/server-sent-events.js';

export interface AgentNotesViewDeps {
  notes: Pick<Notes, 'list'>;
  noteFollower: NoteFollower;
  notifications: Pick<Notifications, 'list'>;
  notificationFollower: NotificationFollower;
}

/**
 * What the agent routes (`routes.ts`) show of private notes and notifications: the notes among the
 * transcript's messages, new notes on a conversation's stream, and the user's notifications on the
 * inbox stream. Only agents' routes call these: the widget's routes and the channel read the
 * transcript and the conversation's events, where no note ever is.
 */
export function createAgentNotesView({ notes, noteFollower, notifications, notificationFollower }: AgentNotesViewDeps) {
  return {
    /** The transcript with the conversation's notes among its messages, in time order. */
    async withNotes<Message extends { createdAt: string }>(
      conversationId: string,
      messages: Message[],
    ): Promise<Array<Message | NoteMessage>> {
      return withNotes(messages, await notes.list(conversationId));
    },

    /**
     * Follows the conversation's new notes onto `stream` as `note` {message} events, held until
     * `release` (once the stream's first event, the conversation, went out): a note written while
     * the snapshot was read is sent after it, never before. A note is sent once (a resync after the
     * subscriber reconnected reads every note again). Stops when the stream ends.
     */
    async followNotes(stream: EventStream, conversationId: string): Promise<{ release(): void }> {
      const held: PrivateNote[] = [];
      const sent = new Set<string>();
      let released = false;
      const pass = (note: PrivateNote) => {
        if (sent.has(note.id)) return;
        sent.add(note.id);
        stream.send('note', { message: noteAsMessage(note) });
      };
      const listening = await noteFollower.follow(conversationId, (note) => (released ? pass(note) : held.push(note)));
      stream.onEnd(() => void listening.stop());
      return {
        release() {
          released = true;
          held.splice(0).forEach(pass);
        },
      };
    },

    /**
     * The user's notifications on their inbox stream: `notifications` {notifications, unread} once
     * subscribed (and again after the subscriber reconnected), then each new one as `notification`
     * at once. Stops when the stream ends; a failure is the caller's to log (the inbox goes on).
     */
    async followNotifications(stream: EventStream, userId: string): Promise<void> {
      const sendAll = async () => stream.send('notifications', await notifications.list(userId));
      const listening = await notificationFollower.follow(
        userId,
        (notification) => stream.send('notification', notification),
        () => void sendAll().catch(() => undefined),
      );
      stream.onEnd(() => void listening.stop());
      await sendAll();
    },
  };
}

export type AgentNotesView = ReturnType<typeof createAgentNotesView>;
