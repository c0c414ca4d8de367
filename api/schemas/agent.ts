import { channels, conversationStatuses } from '#workflows/conversations/types.js';
import { mediaTypes } from '#messaging/media.js';
import { templateLimits } from '#messaging/templates.js';
import { chatMessage } from './chat.js';
import { templateLanguage, templateName, templateResponse } from './messaging-templates.js';
import { nullable, objectOf, timestamp, uuid } from './common.js';
import { noteMessageProperties } from './notes.js';
import { assignmentChange, inboxAssignmentQuery } from './teams.js';
import { textPatterns } from './text-patterns.js';

/** The longest reply an agent may send (the messaging platform takes 4,096 characters of text). */
export const agentLimits = { replyChars: 4_096, listDefault: 50, listMax: 200 } as const;

const status = { enum: [...conversationStatuses] } as const;
const channel = { enum: [...channels], description: '`widget` (the web chat) or `messaging` (WhatsApp).' } as const;

const userTokenQuery = {
  type: 'string',
  minLength: 1,
  description:
    "The user token, for clients that cannot send headers (a browser's EventSource). Accepted on the two event-stream routes only; prefer the Authorization header.",
} as const;

export const listQuery = objectOf(
  {
    status: {
      enum: [...conversationStatuses, 'all'],
      description: 'One status, or `all`. Default: the conversations that need a person (`waiting_for_agent` and `agent`).',
    },
    channel,
    ...inboxAssignmentQuery,
    limit: { type: 'integer', minimum: 1, maximum: agentLimits.listMax, default: agentLimits.listDefault },
  },
  ['status', 'channel', 'teamId', 'assignee', 'sort', 'limit'],
);

export const inboxEventsQuery = objectOf({ token: userTokenQuery }, ['token']);
export const conversationEventsQuery = objectOf({ token: userTokenQuery }, ['token']);

const deliveryProblem = objectOf(
  {
    code: { type: 'string' },
    message: { type: 'string', description: 'Why the last message did not reach the customer.' },
    at: timestamp,
    platformCode: {
      type: 'integer',
      description:
        "Messaging: the platform's own error number beside our `code` (131026 for `recipient_unavailable`, say), when it gave one.",
    },
    platformTitle: {
      type: 'string',
      description: "The platform's title of that error (`Message undeliverable`), when it gave one.",
    },
  },
  ['platformCode', 'platformTitle'],
);

const summaryProperties = {
  conversationId: uuid,
  channel,
  status,
  contact: objectOf(
    {
      userId: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string', description: "Messaging: the customer's profile name on the platform." },
      phone: {
        type: 'string',
        description: "Messaging only: the customer's number (E.164, `+` and digits), which the profile name does not identify.",
      },
      verified: {
        type: 'boolean',
        description:
          "true: the site's server vouched for this visitor with an identity token (the user id; the name and e-mail too when the token carried them).",
      },
    },
    ['userId', 'email', 'name', 'phone', 'verified'],
  ),
  agentName: nullable({ type: 'string', description: 'The agent who has the conversation.' }),
  teamId: nullable({
    type: 'string',
    description: 'The team it was routed to (docs/agent-inbox.md, "Teams and assignment"); null: none.',
  }),
  assignee: nullable(objectOf({ id: uuid, name: { type: 'string' } })),
  sla: nullable(
    objectOf({
      dueAt: nullable({
        ...timestamp,
        description: 'The earliest due time of its running service-level targets (past: overdue).',
      }),
      breached: {
        type: 'array',
        items: { enum: ['firstResponse', 'nextResponse', 'resolution'] },
        description: 'Targets breached and still running.',
      },
    }),
  ),
  createdAt: timestamp,
  updatedAt: { ...timestamp, description: 'The last change of status (the newest activity the inbox sorts by).' },
  windowOpenUntil: nullable({
    ...timestamp,
    description:
      'Messaging only: until when free-form replies may be sent (24 hours after the customer last wrote; once the platform refused a message for the closed window, the time of that refusal, until the customer writes again); null when unknown.',
  }),
  deliveryProblem: nullable({
    ...deliveryProblem,
    description: 'Messaging only: the latest message that did not reach the customer.',
  }),
} as const;
const messagingOnly = ['windowOpenUntil', 'deliveryProblem'] as const;

export const conversationSummary = objectOf(summaryProperties, messagingOnly);

export const conversationListResponse = objectOf({ conversations: { type: 'array', items: conversationSummary } });

/** How far one of our messages got on the messaging channel; it only moves forward. */
export const messageDelivery = objectOf(
  {
    status: {
      enum: ['pending', 'sent', 'delivered', 'read', 'failed'],
      description:
        '`pending` until the platform took it; then `sent`, `delivered` (on the device), `read` (opened, when the customer shares read receipts), or `failed` (never delivered; see `error`). ' +
        'Only forward: a late or repeated status does not take it back.',
    },
    error: {
      ...deliveryProblem,
      description:
        'On `failed`: why, the same code whether the platform refused the send at once or reported it later (`window_closed`: the 24-hour window had closed).',
    },
  },
  ['error'],
);

const agentMessage = {
  ...chatMessage,
  required: chatMessage.required,
  properties: {
    ...chatMessage.properties,
    delivery: { ...messageDelivery, description: 'Messaging only, on messages to the customer: how far it got.' },
    ...noteMessageProperties,
    assignment: {
      ...assignmentChange,
      description: 'On a private system message: a change of team or assignee (docs/agent-inbox.md, "Teams and assignment").',
    },
  },
} as const;

export const agentConversationResponse = objectOf(
  { ...summaryProperties, messages: { type: 'array', items: agentMessage, description: 'The transcript, oldest first.' } },
  messagingOnly,
);

export const statusResponse = objectOf({ status });

export const agentReplyRequest = objectOf(
  {
    text: { type: 'string', minLength: 1, maxLength: agentLimits.replyChars, pattern: textPatterns.notBlank.pattern },
    messageId: { ...uuid, description: 'Optional idempotency key: a reply sent again with the same id is sent once.' },
  },
  ['messageId'],
);

export const agentReplyResponse = objectOf({ messageId: uuid });

const replyMessageId = { ...uuid, description: 'Optional idempotency key: a message sent again with the same id is sent once.' };

export const agentTemplatesResponse = objectOf({
  windowOpenUntil: nullable({
    ...timestamp,
    description: 'Until when free-form replies may be sent; past it (or null) only these templates. Always null on the widget.',
  }),
  templates: {
    type: 'array',
    items: templateResponse,
    description: "The approved templates registered on the conversation's connection; none on the widget.",
  },
});

export const agentTemplateRequest = objectOf(
  {
    name: templateName,
    language: templateLanguage,
    parameters: {
      type: 'array',
      maxItems: templateLimits.bodyParameters,
      items: { type: 'string', maxLength: templateLimits.parameterChars },
      description:
        "The body's parameters, `{{1}}` first: as many as the template takes, none blank, without line breaks, tabs or more than 4 spaces in a row.",
    },
    messageId: replyMessageId,
  },
  ['parameters', 'messageId'],
);

export const agentMediaRequest = objectOf(
  {
    type: { enum: [...mediaTypes] },
    url: {
      type: 'string',
      maxLength: 2048,
      pattern: textPatterns.httpAddress.pattern,
      description: 'Where the service fetches the file (https in production, public addresses only).',
    },
    caption: { type: 'string', maxLength: 1024, description: 'Shown under the file.' },
    filename: {
      type: 'string',
      maxLength: 240,
      description: 'Documents: the name the customer sees; by default the last segment of the URL.',
    },
    messageId: replyMessageId,
  },
  ['caption', 'filename', 'messageId'],
);

/** An action the conversation accepted but had not applied within the wait (F15): it will be. */
export const actionAcceptedResponse = objectOf({
  accepted: { const: true, description: 'The conversation accepted the action; its effect is still being applied.' },
});

/** An agent action's optional `Idempotency-Key`: sent again with the same key, it attaches to the first. */
export const idempotencyKeyPattern = /^[A-Za-z0-9._:-]{1,100}$/;

export const inboxEventStream = {
  type: 'string',
  description: [
    'A `text/event-stream`.',
    '`inbox` {conversations}: the list as `GET /agent/conversations?status=all&limit=200` answers it; sent at once, then whenever it changes (checked every 2 s).',
    "`notifications` {notifications, unread}: the user's notifications as `GET /agent/notifications` answers them, once the stream follows them; `notification` {…one notification}: a new one (a colleague mentioned the user in a note), at once.",
    '`reconnect` {reason, retryMs}: the last event when the server process stops (`shutting_down`); reconnect (with `Last-Event-ID`) and another process answers.',
    'Comment lines (`: keep-alive`) arrive every 15 s.',
  ].join('\n'),
} as const;

export const conversationEventStream = {
  type: 'string',
  description: [
    'A `text/event-stream`.',
    '`conversation` {…the conversation with its messages}: sent first, as `GET /agent/conversations/{conversationId}` answers.',
    '`message` {message}: a message was added (customer, AI, agent or system); it may repeat one of the first event: match by `id`.',
    '`status` {status, agentName}: the conversation changed status.',
    "`delivery` {messageId, delivery}: messaging only: one of our messages got further (`delivery` as on the conversation's messages; only forward).",
    '`note` {message}: an agent wrote a private note (`private: true`, never sent to the customer); it may repeat one of the first event: match by `id`.',
    '`reconnect` {reason, retryMs}: the last event when the server process stops (`shutting_down`); reconnect (with `Last-Event-ID`) and another process answers.',
    'Comment lines (`: keep-alive`) arrive every 15 s.',
  ].join('\n'),
} as const;
