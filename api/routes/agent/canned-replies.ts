import { randomUUID } from 'node:crypto';
import {
  CannedReplyChangedError,
  CannedReplyLimitError,
  ShortcutTakenError,
  visibleTo,
  type CannedReplies,
  type CannedReply,
  type CannedReplyInput,
} from '#conversations/canned-replies.js';
import {
  cannedReplyPlaceholders,
  firstWordOf,
  placeholdersIn,
  renderCannedReply,
  unknownPlaceholders,
  type PlaceholderValues,
} from '#conversations/canned-reply-placeholders.js';
import { searchCannedReplies } from '#conversations/canned-reply-search.js';
import type { Inbox } from '#conversations/inbox.js';
import type { ConversationRecord, ConversationRecords } from '#conversations/records.js';
import type { ConversationClient } from '#conversations/workflow-client.js';
import type { ChannelState } from '#messaging/channel-state.js';
import type { Tenancy, User } from '#tenancy/index.js';
import { AppError, conflict, forbidden, invalidPayload, limitReached, notFound } from '#api/errors.js';
import type { UserGuard } from '#api/middleware/token-budgets.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import {
  cannedMessageRequest,
  cannedReplyListQuery,
  cannedReplyListResponse,
  cannedReplyPreviewResponse,
  cannedReplyRequest,
  cannedReplyResponse,
} from '#api/schemas/canned-replies.js';
import { agentReplyResponse } from '#api/schemas/agent.js';
import type { UserState } from '#api/state.js';
import { agentRefusal, replyRefusal } from './reply-refusal.js';
import { createReplySending, open } from './reply-sending.js';

export interface CannedRepliesRouterDeps {
  requireUser: UserGuard;
  cannedReplies: CannedReplies;
  /** What sending needs, as for a reply typed out (`reply-sending.ts`): the conversation, its window, its workflow. */
  records: Pick<ConversationRecords, 'get'>;
  conversations: Pick<ConversationClient, 'agentReply'>;
  channel: Pick<ChannelState, 'windowOpenUntil'>;
  /** The contact as agents see it (the messaging customer's number with it): what the placeholders are filled from. */
  inbox: Pick<Inbox, 'summarize'>;
  /** Whose teams' replies a user sees: those of the teams they belong to (an admin: every team's). */
  tenancy: Pick<Tenancy, 'listTeams'>;
  now?: () => Date;
}

const permissions = {
  use: "Roles admin and agent: the tenant's replies, those of the teams named, and the caller's own personal ones (another user's personal reply: 404, as if it did not exist).",
  change:
    'Roles admin and agent: any user manages their own personal replies; only admins create, change or delete `tenant` and `team` replies (403 `forbidden` for an agent).',
} as const;

/**
 * Canned replies (docs/agent-inbox.md, "Canned replies"): answers saved to be sent again, shared by
 * the tenant or a team, or kept by one user; listed and searched for the composer, filled in for one
 * conversation (preview), and sent as the agent's reply, within the same rules as a reply typed out.
 */
export function createCannedRepliesRouter({
  requireUser,
  tenancy,
  cannedReplies,
  records,
  conversations,
  channel,
  inbox,
  now = () => new Date(),
}: CannedRepliesRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Agent inbox'], security: 'userToken', errors: [401, 403, 429, 503] });
  const sending = createReplySending({ records, conversations, channel });
  router.use(requireUser(['admin', 'agent']));

  router.get(
    '/agent/canned-replies',
    {
      summary: 'The canned replies the user may use',
      description:
        "The tenant's replies, those of the caller's teams (an admin: every team's; `teamId`, comma-separated: only those of these teams), and the caller's personal ones; searched with `q` (by shortcut, or by the words of the title and text). " +
        `A tenant holds at most 1,000, searched in memory. ${permissions.use}`,
      query: cannedReplyListQuery,
      responses: { 200: { description: 'The replies', schema: cannedReplyListResponse } },
    },
    async (ctx) => {
      const { user, query } = ctx.state;
      const ofUser = (await tenancy.listTeams(user.tenantId))
        .filter((team) => user.role === 'admin' || team.memberIds.includes(user.id))
        .map((team) => team.id);
      const asked = query.teamId ? new Set(query.teamId.split(',')) : undefined;
      const teamIds = asked ? ofUser.filter((id) => asked.has(id)) : ofUser;
      const found = searchCannedReplies(await cannedReplies.visible(user, teamIds), query.q);
      ctx.body = { cannedReplies: found.slice(0, query.limit).map((reply) => present(reply, user)) };
    },
  );

  router.post(
    '/agent/canned-replies',
    {
      summary: 'Save a canned reply',
      description:
        'A `personal` reply belongs to the caller. An unknown placeholder: 400 `unknown_placeholder`, naming it; the shortcut already used in that scope: 409 `shortcut_taken`; ' +
        `the tenant's 1,000 replies reached: 409 \`canned_reply_limit_reached\`. ${permissions.change}`,
      body: cannedReplyRequest,
      responses: { 201: { description: 'The reply, saved', schema: cannedReplyResponse } },
      errors: [409],
    },
    async (ctx) => {
      const { user } = ctx.state;
      const input = await checkedInput(ctx.request.body, ctx.state.user.tenantId);
      mayChange(user, input);
      const reply = await saving(() => cannedReplies.create(user, input));
      ctx.status = 201;
      ctx.body = present(reply, user);
    },
  );

  router.get(
    '/agent/canned-replies/{cannedReplyId}',
    {
      summary: 'Read a canned reply',
      description: `Unknown (or malformed) id: 404; another tenant's: 403. ${permissions.use}`,
      responses: { 200: { description: 'The reply', schema: cannedReplyResponse } },
      errors: [404],
    },
    async (ctx) => {
      const { user } = ctx.state;
      ctx.body = present(await usable(user, ctx.params.cannedReplyId!), user);
    },
  );

  router.put(
    '/agent/canned-replies/{cannedReplyId}',
    {
      summary: 'Change a canned reply',
      description:
        "Replaces its shortcut, title, text and scope (a personal reply stays its owner's). The same refusals as saving one; unknown id: 404; another tenant's: 403. " +
        `Who may change it is decided by its scope before and after the change. ${permissions.change}`,
      body: cannedReplyRequest,
      responses: { 200: { description: 'The reply, changed', schema: cannedReplyResponse } },
      errors: [404, 409],
    },
    async (ctx) => {
      const { user } = ctx.state;
      const id = ctx.params.cannedReplyId!;
      const input = await checkedInput(ctx.request.body, ctx.state.user.tenantId);
      await usable(user, id);
      const reply = await saving(() =>
        cannedReplies.update(id, user, input, (current) => {
          mayChange(user, current);
          mayChange(user, input);
        }),
      );
      if (!reply) throw gone(id);
      ctx.body = present(reply, user);
    },
  );

  router.delete(
    '/agent/canned-replies/{cannedReplyId}',
    {
      summary: 'Delete a canned reply',
      description: `Messages already sent with it stay as they are. Unknown id: 404; another tenant's: 403. ${permissions.change}`,
      responses: { 204: { description: 'Deleted' } },
      errors: [404, 409],
    },
    async (ctx) => {
      const { user } = ctx.state;
      const id = ctx.params.cannedReplyId!;
      await usable(user, id);
      if (!(await saving(() => cannedReplies.remove(id, (current) => mayChange(user, current))))) throw gone(id);
      ctx.status = 204;
    },
  );

  router.get(
    '/agent/conversations/{conversationId}/canned-replies/{cannedReplyId}/preview',
    {
      summary: 'A canned reply filled in for a conversation',
      description:
        'The text the customer would read if the caller sent it now, for the composer to show (or to put in the reply box and edit). ' +
        "A placeholder the conversation has no value for, without a fallback: 400 `placeholder_missing`, naming it. Another tenant's conversation or reply: 403; unknown: 404. " +
        permissions.use,
      responses: { 200: { description: 'The filled-in text', schema: cannedReplyPreviewResponse } },
      errors: [400, 404],
    },
    async (ctx) => {
      const { user } = ctx.state;
      const conversation = await sending.owned(user.tenantId, ctx.params.conversationId!);
      const reply = await usable(user, ctx.params.cannedReplyId!);
      ctx.body = { cannedReplyId: reply.id, text: await rendered(reply, conversation, user) };
    },
  );

  router.post(
    '/agent/conversations/{conversationId}/canned-messages',
    {
      summary: 'Send a canned reply',
      description:
        "Fills the reply's placeholders for this conversation and the caller, then sends it exactly as `POST …/messages` sends a reply: only the agent who took the conversation over (409 `conflict`), " +
        'not once it is closed (409 `conversation_closed`), and on the messaging channel only within the 24-hour window (409 `window_closed`: a template is needed then, `…/template-messages`). ' +
        'An unknown placeholder: 400 `unknown_placeholder`; one without a value here and without a fallback: 400 `placeholder_missing`; both name it, and nothing is sent. ' +
        'The `messageId` is the retry key; not taken up within `WORKFLOW_WAIT_SECONDS`: 503 `action_not_confirmed`. ' +
        permissions.use,
      body: cannedMessageRequest,
      responses: { 202: { description: 'The reply is accepted', schema: agentReplyResponse } },
      errors: [404, 409],
    },
    async (ctx) => {
      const { user } = ctx.state;
      const conversation = await open(sending.owned(user.tenantId, ctx.params.conversationId!));
      // Who may send comes first, as for a file: an agent who may not send it learns that, not what it lacks.
      const refusal =
        agentRefusal(conversation, user.id) ?? replyRefusal(conversation, await sending.windowOf(conversation), now());
      if (refusal) throw refusal;
      const { cannedReplyId, messageId = randomUUID() } = ctx.request.body;
      const reply = await usable(user, cannedReplyId, '/cannedReplyId');
      await sending.sendReply(ctx, conversation, messageId, { text: await rendered(reply, conversation, user) });
    },
  );

  /**
   * A reply the user may use: 404 when it exists nowhere (a malformed id too) or is another user's
   * personal one, 403 when it is another tenant's. `field`: the body field that named it, when it
   * came in the body (its 404 then says where).
   */
  async function usable(user: User, id: string, field?: string): Promise<CannedReply> {
    const reply = await cannedReplies.get(id);
    if (reply && reply.tenantId !== user.tenantId) throw forbidden(`Canned reply ${id} belongs to another tenant.`);
    if (!reply || !visibleTo(reply, user)) {
      const message = `No canned reply ${id}.`;
      throw field
        ? new AppError(404, 'not_found', message, [{ path: field, message: 'names no canned reply you may use' }])
        : notFound(message);
    }
    return reply;
  }

  /** The reply filled in for this conversation and agent; an unknown or missing placeholder: 400, naming it. */
  async function rendered(reply: CannedReply, conversation: ConversationRecord, user: User): Promise<string> {
    const { contact } = await inbox.summarize(conversation);
    const values: PlaceholderValues = {
      'contact.name': contact.name,
      'contact.first_name': firstWordOf(contact.name),
      'contact.email': contact.email,
      'contact.phone': contact.phone,
      'agent.name': user.name,
      'agent.first_name': firstWordOf(user.name),
      'agent.email': user.email,
      'conversation.id': conversation.conversationId,
    };
    const result = renderCannedReply(reply.text, values);
    if (result.ok) return result.text;
    if (result.unknown.length > 0) throw unknownPlaceholder(result.unknown, '/cannedReplyId');
    const [first] = result.missing;
    throw new AppError(
      400,
      'placeholder_missing',
      `This conversation has no value for {{${first}}}: fill it in by hand, or give the placeholder a fallback ({{${first} | …}}).`,
      result.missing.map((name) => ({
        path: '/cannedReplyId',
        placeholder: name,
        message: `{{${name}}} has no value in this conversation`,
      })),
    );
  }

  /** The request's reply, its scope's team one of the tenant's and its placeholders known; else 400 naming the problem. */
  async function checkedInput(body: CannedReplyInput, tenantId: string): Promise<CannedReplyInput> {
    if (body.teamId && !(await tenancy.listTeams(tenantId)).some((team) => team.id === body.teamId))
      throw invalidPayload('No such team in this tenant.', [
        { path: '/teamId', message: `no team ${body.teamId} in this tenant` },
      ]);
    return checkedShape(body);
  }

  return router;
}

/** The request's reply, its scope's team given and its placeholders known; else 400 naming the problem. */
function checkedShape(body: CannedReplyInput): CannedReplyInput {
  if (body.scope === 'team' && !body.teamId)
    throw invalidPayload('A team reply needs its teamId.', [{ path: '/teamId', message: 'is required for the team scope' }]);
  if (body.scope !== 'team' && body.teamId !== undefined)
    throw invalidPayload(`A ${body.scope} reply belongs to no team: leave teamId out.`, [
      { path: '/teamId', message: 'is only for the team scope' },
    ]);
  const unknown = unknownPlaceholders(body.text);
  if (unknown.length > 0) throw unknownPlaceholder(unknown, '/text');
  return body;
}

const knownPlaceholders = Object.keys(cannedReplyPlaceholders)
  .map((name) => `{{${name}}}`)
  .join(', ');

function unknownPlaceholder(names: string[], path: string): AppError {
  return new AppError(
    400,
    'unknown_placeholder',
    `Unknown placeholder {{${names[0]}}}: the placeholders are ${knownPlaceholders}.`,
    names.map((name) => ({ path, placeholder: name, message: `{{${name}}} is not a placeholder` })),
  );
}

/** Admins change the tenant's and teams' replies; anyone their own personal ones. */
function mayChange(user: User, reply: Pick<CannedReply, 'scope'>): void {
  if (reply.scope !== 'personal' && user.role !== 'admin')
    throw forbidden(`Only an admin may save, change or delete ${reply.scope} canned replies; save a personal one instead.`);
}

/** The store's refusals as the API's. */
async function saving<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (error instanceof ShortcutTakenError)
      throw new AppError(409, 'shortcut_taken', error.message, [{ path: '/shortcut', message: 'is taken in this scope' }]);
    if (error instanceof CannedReplyLimitError) throw limitReached('canned_reply_limit_reached', error.message);
    if (error instanceof CannedReplyChangedError) throw conflict(error.message);
    throw error;
  }
}

const gone = (id: string) => notFound(`No canned reply ${id}.`);

/** A reply as the API shows it: without its tenant and owner (a personal reply is only ever shown to its owner). */
function present(reply: CannedReply, user: User) {
  return {
    id: reply.id,
    scope: reply.scope,
    teamId: reply.teamId ?? null,
    shortcut: reply.shortcut,
    title: reply.title,
    text: reply.text,
    placeholders: [...new Set(placeholdersIn(reply.text).map(({ name }) => name))],
    editable: reply.scope === 'personal' || user.role === 'admin',
    createdAt: reply.createdAt,
    updatedAt: reply.updatedAt,
  };
}
