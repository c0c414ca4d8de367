import { randomUUID } from 'node:crypto';
import type { EventFollower } from '#conversations/events.js';
import type { Inbox, InboxFilter } from '#conversations/inbox.js';
import type { ConversationRecord, ConversationRecords } from '#conversations/records.js';
import type { ChatMessage } from '#conversations/chat-message.js';
import type { Transcript } from '#conversations/transcript.js';
import type { Ratings } from '#insights/ratings.js';
import { ActionNotConfirmedError, type ConversationClient } from '#conversations/workflow-client.js';
import type { ChannelState } from '#messaging/channel-state.js';
import type { Agent } from '#workflows/conversations/types.js';
import type { AssignmentLog } from '#conversations/assignment-log.js';
import { assignmentMessage } from '#conversations/assignment-log.js';
import type { AgentAvailability } from '#conversations/availability.js';
import type { InboxPlacement } from '#conversations/inbox-offers.js';
import { interleave } from '#conversations/interleave.js';
import { keepInboxPresence, type InboxPresenceDeps } from './inbox-presence.js';
import { sendInboxUpdates } from './inbox-stream.js';
import type { AgentNotesView } from './notes-live.js';
import { tokenFromQuery } from './query-token.js';
import type { ReplyExtras } from './reply-extras.js';
import { agentRefusal, replyRefusal } from './reply-refusal.js';
import { createReplySending, open, workflowAction } from './reply-sending.js';
import { AppError, invalidPayload } from '#api/errors.js';
import { followThenAct, type EventStreams, type StreamCap, type StreamRecheck } from '#api/server-sent-events.js';
import { authenticateUser } from '#api/middleware/user-auth.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import {
  actionAcceptedResponse,
  agentConversationResponse,
  agentMediaRequest,
  agentReplyRequest,
  agentReplyResponse,
  agentTemplateRequest,
  agentTemplatesResponse,
  conversationEventStream,
  conversationEventsQuery,
  conversationListResponse,
  idempotencyKeyPattern,
  inboxEventStream,
  inboxEventsQuery,
  listQuery,
  statusResponse,
} from '#api/schemas/agent.js';
import type { UserState } from '#api/state.js';
import type { UserGuard } from '#api/middleware/token-budgets.js';
import type { Tenancy } from '#tenancy/index.js';

export interface AgentRouterDeps {
  /** Authenticates the user token, within its budgets (`api/middleware/token-budgets.ts`). */
  requireUser: UserGuard;
  /** Where an open stream checks its token again. */
  tenancy: Pick<Tenancy, 'findUserByToken'>;
  inbox: Inbox;
  records: Pick<ConversationRecords, 'get'>;
  transcript: Pick<Transcript, 'read'>;
  /** Each rated answer's feedback, shown with the transcript. */
  ratings: Pick<Ratings, 'withFeedback'>;
  follower: EventFollower;
  conversations: Pick<ConversationClient, 'takeOver' | 'agentReply' | 'handBack' | 'close' | 'nudgeAssignment'>;
  channel: Pick<ChannelState, 'windowOpenUntil' | 'problemOf' | 'deliveriesOf'>;
  /** Templates and files on the messaging channel (`reply-extras.ts`). */
  extras: ReplyExtras;
  /** Private notes among the transcript and on the streams, and the user's notifications (`notes-live.ts`). */
  notes: AgentNotesView;
  assignment: AgentAssignmentDeps;
  now?: () => Date;
  /** How often the inbox stream looks for changes. */
  inboxIntervalMs?: number;
  streams: EventStreams;
  /** Open event streams per user at most; how often an open stream checks its token again. */
  streamSettings: { perUser: number; recheckMs: number };
}

/** Teams and assignment, as the inbox shows them: the assignments' history among the transcript, presence and offers. */
export interface AgentAssignmentDeps extends Omit<InboxPresenceDeps, 'conversations'> {
  log: Pick<AssignmentLog, 'read'>;
  availability: AgentAvailability;
  placement: InboxPlacement;
}

const isStreamPath = (path: string) => path === '/agent/events' || /^\/agent\/conversations\/[^/]+\/events$/.test(path);

/**
 * The agent inbox: the tenant's conversations that need a person, each with its transcript, and
 * the agent's actions on them (take over, reply, hand back to the AI, close), which the
 * conversation's workflow accepts or refuses. Admins and agents may both work the inbox.
 */
export function createAgentRouter({
  requireUser,
  tenancy,
  inbox,
  records,
  transcript,
  ratings,
  follower,
  conversations,
  channel,
  extras,
  notes,
  assignment,
  now = () => new Date(),
  inboxIntervalMs = 2_000,
  streams,
  streamSettings,
}: AgentRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Agent inbox'], security: 'userToken', errors: [401, 403, 429, 503] });
  const roles = ['admin', 'agent'] as const;
  router.use(tokenFromQuery(isStreamPath), requireUser(roles));

  /** A user's stream: capped per user, and ended once its token no longer authenticates (revoked, user gone). */
  const openUserStream = (ctx: Parameters<EventStreams['open']>[0] & { state: UserState }) => {
    const { user } = ctx.state;
    const token = /^Bearer (\S+)$/.exec(ctx.get('authorization'))![1]!;
    const caps: StreamCap[] = [{ key: `user:${user.id}`, max: streamSettings.perUser, subject: 'this user' }];
    const recheck: StreamRecheck = {
      intervalMs: streamSettings.recheckMs,
      stillAllowed: () =>
        authenticateUser(tenancy, token, roles).then(
          (again) => again.id === user.id,
          (error: unknown) => {
            if (error instanceof AppError && (error.status === 401 || error.status === 403)) return false;
            throw error;
          },
        ),
    };
    return streams.open(ctx, caps, recheck);
  };

  const agentOf = (user: UserState['user']): Agent => ({ agentId: user.id, name: user.name });
  const { owned, windowOf, sendReply } = createReplySending({ records, conversations, channel });
  const detailed = async (record: ConversationRecord) => ({
    ...(await inbox.summarize(record)),
    messages: interleave(
      await notes.withNotes(
        record.conversationId,
        await withDeliveries(
          record,
          await ratings.withFeedback(record.conversationId, await transcript.read(record.conversationId)),
        ),
      ),
      (await assignment.log.read(record.conversationId)).map(assignmentMessage),
    ),
  });

  /** Messaging: each message to the customer with how far it got (`pending` until the platform took it). */
  async function withDeliveries(record: ConversationRecord, messages: ChatMessage[]) {
    if (record.channel !== 'messaging') return messages;
    const outbound = messages.filter((message) => message.author !== 'visitor').map((message) => message.id);
    const deliveries = await channel.deliveriesOf(record.conversationId, outbound);
    return messages.map((message) =>
      message.author === 'visitor' ? message : { ...message, delivery: deliveries.get(message.id) ?? { status: 'pending' } },
    );
  }

  router.get(
    '/agent/conversations',
    {
      summary: "The tenant's conversations, for the inbox",
      description:
        'Newest activity (`updatedAt`) first. By default the conversations that need a person (`waiting_for_agent` and `agent`); `status=all` for every status. ' +
        'Those that need a person come from their own index (up to 1,000, latest change of status first), so newer conversations never push them out; ' +
        "other statuses are looked for among the tenant's latest 1,000 conversations (by creation). " +
        '`assignee=mine|unassigned` and `teamId` read indexes of their own (docs/agent-inbox.md, "Teams and assignment"). Roles admin and agent.',
      query: listQuery,
      responses: { 200: { description: 'The conversations', schema: conversationListResponse } },
    },
    async (ctx) => {
      const { user } = ctx.state;
      ctx.body = { conversations: await inbox.list(user.tenantId, { ...ctx.state.query, userId: user.id }) };
    },
  );

  router.get(
    '/agent/events',
    {
      summary: 'Follow the inbox',
      description:
        'Server-sent events: the inbox list (every status, the latest 200) at once and whenever it changes, so a new conversation shows as it starts. The user token may also be sent as `?token=` (for EventSource).',
      query: inboxEventsQuery,
      responses: { 200: { description: 'The event stream', schema: inboxEventStream, contentType: 'text/event-stream' } },
      errors: [429],
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      // Every open conversation: a new one shows up as it starts, not only once it needs a person.
      const filter: InboxFilter = { status: 'all', limit: 200 };
      const stream = openUserStream(ctx);
      stream.start();
      const updates = sendInboxUpdates(stream, () => inbox.list(tenantId, filter), {
        intervalMs: inboxIntervalMs,
        onError: (error) => ctx.state.log.warn({ err: error }, 'inbox update failed'),
      });
      // The page keeps its agent present and given conversations, and hears of assignments at once.
      keepInboxPresence(
        stream,
        ctx.state.user,
        { ...assignment, conversations },
        {
          refresh: updates.refresh,
          onError: (error) => ctx.state.log.warn({ err: error }, 'inbox presence failed'),
        },
      ).catch((error: unknown) => ctx.state.log.warn({ err: error }, 'inbox changes not followed'));
      // Mentions arrive at once, on the user's own channel, not at the list's next poll.
      notes.followNotifications(stream, ctx.state.user.id).catch((error: unknown) => {
        ctx.state.log.warn({ err: error }, 'notifications not followed');
      });
    },
  );

  router.get(
    '/agent/conversations/{conversationId}',
    {
      summary: 'Read a conversation',
      description:
        "The conversation with its transcript, the agents' private notes among its messages (`private: true`). Another tenant's: 403; unknown: 404.",
      responses: { 200: { description: 'The conversation', schema: agentConversationResponse } },
      errors: [404],
    },
    async (ctx) => {
      ctx.body = await detailed(await owned(ctx.state.user.tenantId, ctx.params.conversationId!));
    },
  );

  router.get(
    '/agent/conversations/{conversationId}/events',
    {
      summary: 'Follow a conversation',
      description:
        "Server-sent events: the conversation with its transcript first, then new messages and status changes (the AI's tokens are left out). The user token may also be sent as `?token=` (for EventSource).",
      query: conversationEventsQuery,
      responses: {
        200: { description: 'The event stream', schema: conversationEventStream, contentType: 'text/event-stream' },
      },
      errors: [404, 429],
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const { conversationId } = await owned(tenantId, ctx.params.conversationId!);
      const stream = openUserStream(ctx);
      // Notes are not conversation events (the visitor's stream has none): followed on their own, held until the snapshot is out.
      const newNotes = await notes.followNotes(stream, conversationId);
      // Follow first, then read: nothing can happen between the snapshot and the first live event.
      await followThenAct(
        stream,
        {
          follower,
          conversationId,
          after: 'now',
          picks: (event) => event.type === 'message' || event.type === 'status' || event.type === 'delivery',
          withIds: true,
        },
        async () => [{ event: 'conversation', data: await detailed(await owned(tenantId, conversationId)) }],
      );
      newNotes.release();
    },
  );

  router.post(
    '/agent/conversations/{conversationId}/take-over',
    statusAction(
      'Take a conversation over',
      'The AI stops answering and the agent chats with the customer (status `agent`). Taking over again is a no-op. ' +
        'Another agent has it: 409 `conflict`; closed: 409 `conversation_closed`. ',
    ),
    async (ctx) => {
      const conversation = await open(owned(ctx.state.user.tenantId, ctx.params.conversationId!));
      const { updateId, retryWith } = agentAction(ctx, 'take-over');
      await answerAction(ctx, retryWith, () => conversations.takeOver(conversation, agentOf(ctx.state.user), { updateId }));
    },
  );

  router.post(
    '/agent/conversations/{conversationId}/messages',
    {
      summary: 'Reply to the customer',
      description:
        'Only the agent who took the conversation over may reply (409 `conflict` otherwise). The reply is accepted (202) and then appears in the transcript and on the channel. ' +
        'Messaging: more than 24 hours after the customer last wrote (or once the platform refused a message for the closed window, until the customer writes again), free-form replies are refused with 409 `window_closed`: send an approved template instead (`…/template-messages`). ' +
        'The `messageId` is the retry key: a reply sent again with it attaches to the first. Not taken up within `WORKFLOW_WAIT_SECONDS`: 503 `action_not_confirmed` (its details carry the `messageId` to retry with).',
      body: agentReplyRequest,
      responses: { 202: { description: 'The reply is accepted', schema: agentReplyResponse } },
      errors: [404, 409],
    },
    async (ctx) => {
      const conversation = await open(owned(ctx.state.user.tenantId, ctx.params.conversationId!));
      const refusal = replyRefusal(conversation, await windowOf(conversation), now());
      if (refusal) throw refusal;
      const { text, messageId = randomUUID() } = ctx.request.body;
      await sendReply(ctx, conversation, messageId, { text });
    },
  );

  router.get(
    '/agent/conversations/{conversationId}/templates',
    {
      summary: 'The templates an agent may send',
      description:
        "The approved templates registered on the conversation's connection, and until when free-form replies are allowed: past `windowOpenUntil`, only these may be sent. The widget has none.",
      responses: { 200: { description: 'The templates', schema: agentTemplatesResponse } },
      errors: [404],
    },
    async (ctx) => {
      const conversation = await owned(ctx.state.user.tenantId, ctx.params.conversationId!);
      const window = await windowOf(conversation);
      ctx.body = { windowOpenUntil: window?.toISOString() ?? null, templates: await extras.templatesFor(conversation) };
    },
  );

  router.post(
    '/agent/conversations/{conversationId}/template-messages',
    {
      summary: 'Send an approved template',
      description:
        'Messaging only (409 `unsupported_on_channel` on the widget); allowed also after the 24-hour window has closed. The template must be registered on the connection and get exactly its number of parameters ' +
        '(400 otherwise, before anything is sent). The transcript shows the body filled in. Should the platform refuse it all the same (a template it does not know, paused or disabled: codes 132000-132016), ' +
        "the refusal is recorded on the message as the conversation's `deliveryProblem`. Only the agent who took the conversation over may send (409 `conflict`); the `messageId` is the retry key, as for replies.",
      body: agentTemplateRequest,
      responses: { 202: { description: 'The template is accepted', schema: agentReplyResponse } },
      errors: [404, 409],
    },
    async (ctx) => {
      const conversation = await open(owned(ctx.state.user.tenantId, ctx.params.conversationId!));
      const { name, language, parameters = [], messageId = randomUUID() } = ctx.request.body;
      await sendReply(ctx, conversation, messageId, await extras.template(conversation, { name, language, parameters }));
    },
  );

  router.post(
    '/agent/conversations/{conversationId}/media-messages',
    {
      summary: 'Send an image or a document',
      description:
        'Messaging only (409 `unsupported_on_channel` on the widget: send the link as text there), within the 24-hour window (409 `window_closed`), ' +
        'by the agent who took the conversation over (409 `conflict` otherwise, checked before anything is fetched). ' +
        'The service fetches `url` through its outbound client (public addresses only in production) and uploads the file to the platform. ' +
        'Images: JPEG or PNG up to 5 MB; documents: PDF, plain text, Word, Excel or PowerPoint up to 16 MB. ' +
        'A file it cannot take is 400 with the reason: `media_refused` (the address is not public or not http(s)), `media_unavailable` (no answer, or not 200), `media_too_large`, `media_type_not_allowed`; ' +
        'one the platform refuses is 502 `media_upload_failed` (a refused token also marks the connection `token_invalid`, after which the route answers 409 `token_invalid` before fetching). A retry with the same `messageId` fetches and uploads again, but sends once.',
      body: agentMediaRequest,
      responses: { 202: { description: 'The file is accepted', schema: agentReplyResponse } },
      errors: [404, 409, 502],
    },
    async (ctx) => {
      const conversation = await open(owned(ctx.state.user.tenantId, ctx.params.conversationId!));
      const { messageId = randomUUID(), ...file } = ctx.request.body;
      if (conversation.channel === 'messaging') {
        // Nothing is fetched or uploaded for an agent who may not send: the workflow checks again.
        const refusal =
          agentRefusal(conversation, ctx.state.user.id) ?? replyRefusal(conversation, await windowOf(conversation), now());
        if (refusal) throw refusal;
      }
      await sendReply(ctx, conversation, messageId, await extras.media(conversation, file));
    },
  );

  router.post(
    '/agent/conversations/{conversationId}/hand-back',
    statusAction(
      'Hand a conversation back to the AI',
      'The AI answers again (status `ai`). Only the agent who has it may hand it back (409 `conflict`); a waiting conversation may be handed back by anyone. ',
    ),
    async (ctx) => {
      const conversation = await open(owned(ctx.state.user.tenantId, ctx.params.conversationId!));
      const { updateId, retryWith } = agentAction(ctx, 'hand-back');
      await answerAction(ctx, retryWith, () => conversations.handBack(conversation, ctx.state.user.id, { updateId }));
    },
  );

  router.post(
    '/agent/conversations/{conversationId}/close',
    statusAction(
      'Close a conversation',
      'The customer is told; a new message from them starts a new conversation. Already closed: 409 `conversation_closed`. ',
    ),
    async (ctx) => {
      const conversation = await open(owned(ctx.state.user.tenantId, ctx.params.conversationId!));
      const { updateId, retryWith } = agentAction(ctx, 'close');
      await answerAction(ctx, retryWith, () => conversations.close(conversation, 'agent', { updateId }));
    },
  );

  return router;
}

export const actionWaitNote =
  'Answers once the conversation applied it, within `WORKFLOW_WAIT_SECONDS` (15 s by default): past that, 202 `{accepted: true}` when the conversation accepted it ' +
  '(it will be applied), or 503 `action_not_confirmed` with Retry-After when it has not taken it up (no worker): it may still be applied, so send it again with the same ' +
  '`Idempotency-Key` (the one sent, or the one in the error details), which attaches to the first and answers its outcome.';

/** The documentation of an agent action that changes the conversation's status: 200 with it, or 202 while it applies. */
function statusAction(summary: string, description: string) {
  return {
    summary,
    description: description + actionWaitNote,
    headers: [idempotencyKeyHeader],
    responses: {
      200: { description: 'The new status', schema: statusResponse },
      202: { description: 'Accepted, still being applied', schema: actionAcceptedResponse },
    },
    errors: [400, 404, 409],
  };
}

export const idempotencyKeyHeader = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Up to 100 of A-Z a-z 0-9 . _ : -. The action sent again with the same key (by the same user) attaches to the first instead of acting twice.',
};

/** The update id of an agent's action, from the user's `Idempotency-Key` or a new one, and that key. */
export function agentAction(ctx: { get(name: string): string; state: UserState }, action: string) {
  const key = ctx.get('idempotency-key');
  if (key && !idempotencyKeyPattern.test(key))
    throw invalidPayload('The Idempotency-Key header takes up to 100 of A-Z a-z 0-9 . _ : -', [
      { path: 'Idempotency-Key', message: `must match ${idempotencyKeyPattern.source}` },
    ]);
  const idempotencyKey = key || randomUUID();
  return { updateId: `${action}/${ctx.state.user.id}/${idempotencyKey}`, retryWith: { idempotencyKey } };
}

/** The action's new status (200), or 202 when the conversation accepted it but is still applying it. */
async function answerAction(
  ctx: { status: number; body: unknown },
  retryWith: Record<string, string>,
  run: () => Promise<ConversationStatusValue>,
): Promise<void> {
  try {
    ctx.body = { status: await workflowAction(run, retryWith) };
  } catch (error) {
    if (!(error instanceof ActionNotConfirmedError && error.stage === 'accepted')) throw error;
    ctx.status = 202;
    ctx.body = { accepted: true };
  }
}

type ConversationStatusValue = Awaited<ReturnType<ConversationClient['takeOver']>>;
