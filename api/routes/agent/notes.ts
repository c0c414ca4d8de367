import { randomUUID } from 'node:crypto';
import { UnknownMentionError } from '#conversations/mentions.js';
import type { NoteWriter } from '#conversations/note-writing.js';
import { NoteIdTakenError, NoteLimitError, type Notes, type PrivateNote } from '#conversations/notes.js';
import type { Notifications } from '#conversations/notifications.js';
import type { ConversationRecords } from '#conversations/records.js';
import { conflict, invalidPayload, limitReached } from '#api/errors.js';
import type { UserGuard } from '#api/middleware/token-budgets.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import {
  noteListResponse,
  noteRequest,
  noteResponse,
  notificationListResponse,
  notificationsReadRequest,
  notificationsReadResponse,
} from '#api/schemas/notes.js';
import type { UserState } from '#api/state.js';
import { ownedConversation } from './reply-sending.js';

export interface AgentNotesRouterDeps {
  requireUser: UserGuard;
  records: Pick<ConversationRecords, 'get'>;
  notes: Pick<Notes, 'list'>;
  writer: NoteWriter;
  notifications: Pick<Notifications, 'list' | 'markRead'>;
}

const permission = 'Roles admin and agent (user token).';

/**
 * Agents' private notes on their tenant's conversations, and each user's notifications (a colleague
 * mentioned them). Notes are for the tenant's people only: kept apart from the transcript, they
 * never reach the customer or the channel; the agent's view of the conversation shows them among
 * its messages (`private: true`).
 */
export function createAgentNotesRouter({ requireUser, records, notes, writer, notifications }: AgentNotesRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Agent inbox'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(requireUser(['admin', 'agent']));

  const owned = (tenantId: string, conversationId: string) => ownedConversation(records, tenantId, conversationId);

  router.post(
    '/agent/conversations/{conversationId}/notes',
    {
      summary: 'Write a private note',
      description:
        "A note for the tenant's people on the conversation, whatever its status (closed too) and whoever has it: never sent to the customer, shown among the messages of the agent's view (`private: true`) and live on its event stream (`note`). " +
        "`@` and a colleague's full name or e-mail address in the text, or their id in `mentions`, mentions them: each is notified in the inbox (`GET /agent/notifications`, and the `notification` event of `GET /agent/events`). " +
        'A mentioned id that is no active user of the tenant: 400. The `noteId` is the retry key: the same id again answers the first note (200) and stores nothing; used by another author: 409 `conflict`. ' +
        `At most 1,000 notes per conversation (409 \`note_limit_reached\`). Another tenant's conversation: 403; unknown: 404. ${permission}`,
      body: noteRequest,
      responses: {
        201: { description: 'The note, stored', schema: noteResponse },
        200: { description: 'The note first stored under this `noteId`', schema: noteResponse },
      },
      errors: [400, 404, 409],
    },
    async (ctx) => {
      const { user } = ctx.state;
      const conversation = await owned(user.tenantId, ctx.params.conversationId!);
      const { text, noteId = randomUUID(), mentions } = ctx.request.body;
      try {
        const { note, created } = await writer.write(
          conversation,
          { userId: user.id, name: user.name },
          { text, noteId, ...(mentions ? { mentions } : {}) },
        );
        ctx.status = created ? 201 : 200;
        ctx.body = presentNote(note);
      } catch (error) {
        if (error instanceof UnknownMentionError)
          throw invalidPayload(error.message, [
            { path: `/mentions/${error.index}`, message: 'must be an active user of this tenant' },
          ]);
        if (error instanceof NoteIdTakenError) throw conflict(error.message);
        if (error instanceof NoteLimitError) throw limitReached('note_limit_reached', error.message);
        throw error;
      }
    },
  );

  router.get(
    '/agent/conversations/{conversationId}/notes',
    {
      summary: "A conversation's private notes",
      description: `The notes alone, oldest first (the conversation's view has them among its messages). Another tenant's conversation: 403; unknown: 404. ${permission}`,
      responses: { 200: { description: 'The notes', schema: noteListResponse } },
      errors: [404],
    },
    async (ctx) => {
      const conversation = await owned(ctx.state.user.tenantId, ctx.params.conversationId!);
      ctx.body = { notes: (await notes.list(conversation.conversationId)).map(presentNote) };
    },
  );

  router.get(
    '/agent/notifications',
    {
      summary: 'My notifications',
      description:
        "The signed-in user's notifications, newest first (the latest 100 are kept), each `read` or not, and how many are unread: for now, a colleague mentioned them in a note (`mention`, with the conversation to open). " +
        `They also arrive live on \`GET /agent/events\` (\`notification\`). ${permission}`,
      responses: { 200: { description: 'The notifications', schema: notificationListResponse } },
    },
    async (ctx) => {
      ctx.body = await notifications.list(ctx.state.user.id);
    },
  );

  router.post(
    '/agent/notifications/read',
    {
      summary: 'Mark my notifications read',
      description: `The given notifications (\`ids\`), or all of them when the body or \`ids\` is left out; answers how many stay unread. Ids that are not the user's change nothing. ${permission}`,
      body: notificationsReadRequest,
      bodyOptional: true,
      responses: { 200: { description: 'Marked read', schema: notificationsReadResponse } },
      errors: [400],
    },
    async (ctx) => {
      ctx.body = { unread: await notifications.markRead(ctx.state.user.id, ctx.request.body.ids) };
    },
  );

  return router;
}

function presentNote(note: PrivateNote) {
  return { ...note, private: true as const };
}
