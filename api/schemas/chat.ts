import { identityTokenRules } from '#conversations/identity-token.js';
import { conversationStatuses } from '#workflows/conversations/types.js';
import { feedbackReason, rating } from './chat-feedback.js';
import { nullable, objectOf, timestamp, uuid } from './common.js';
import { textPatterns } from './text-patterns.js';

/** The longest message a visitor may send. */
export const chatLimits = { messageChars: 4_000 } as const;

const locale = { type: 'string', pattern: textPatterns.widgetLanguageTag.pattern, examples: ['de', 'en-GB'] } as const;

const identityToken = {
  type: 'string',
  minLength: 1,
  maxLength: identityTokenRules.maxLength,
  writeOnly: true,
  description:
    "A visitor identity token signed by the site's server with the operator's identity secret: `v1.<iat>.<exp>.<nonce>.<base64url(userId)>.<signature>` (HMAC-SHA256) or an HS256 JWT (`sub`, `iat`, `exp`, `jti`, optional `name`, `email`). Taken once; see docs/widget.md.",
} as const;

export const configQuery = objectOf({ locale: { ...locale, description: "The widget's locale; else the operator's." } }, [
  'locale',
]);

export const widgetConfigResponse = objectOf({
  operatorId: uuid,
  name: { type: 'string' },
  greeting: { type: 'string' },
  locale: { type: 'string', description: 'The locale the texts are in (`en` or `de`; others fall back to `en`).' },
  aiNotice: { type: 'string', description: 'Shown with every AI answer; fixed, cannot be switched off.' },
  identityRequired: {
    type: 'boolean',
    description:
      'True while the operator requires verified visitors: a conversation starts only with an identity token (or a verified session); without one, 403 `identity_required`.',
  },
});

export const startConversationRequest = objectOf(
  {
    contact: objectOf(
      {
        userId: { type: 'string', minLength: 1, maxLength: 200 },
        email: { type: 'string', format: 'email', maxLength: 320 },
        name: { type: 'string', minLength: 1, maxLength: 200 },
      },
      ['userId', 'email', 'name'],
    ),
    locale,
    identityToken,
  },
  ['contact', 'locale', 'identityToken'],
);

export const identityRequest = objectOf({ identityToken });

const citation = objectOf({
  n: { type: 'integer', minimum: 1, description: 'The number of its `[n]` marker in the text.' },
  title: { type: 'string' },
  url: nullable({ type: 'string' }),
  externalId: { type: 'string' },
  sourceType: { type: 'string' },
});

export const chatMessage = objectOf(
  {
    id: { type: 'string' },
    author: { enum: ['visitor', 'ai', 'agent', 'system'] },
    text: {
      type: 'string',
      description:
        'AI messages: light markdown (paragraphs, **bold**, _italic_, lists, http(s) links, `[n]` citation markers), to render as text, never as HTML.',
    },
    createdAt: timestamp,
    aiGenerated: { type: 'boolean', description: 'True for every AI message, set by the service.' },
    aiNotice: { type: 'string', description: 'On every AI message: the fixed AI disclosure to show with it.' },
    citations: { type: 'array', items: citation },
    outcome: { enum: ['answered', 'unknown', 'handoff', 'failed'] },
    replyTo: { type: 'string', description: 'The visitor message this AI message answers.' },
    agent: objectOf({ name: { type: 'string' } }),
    template: {
      ...objectOf({
        name: { type: 'string' },
        language: { type: 'string' },
        parameters: { type: 'array', items: { type: 'string' } },
      }),
      description: 'Messaging: the approved template an agent sent; `text` is its body filled in, as the customer reads it.',
    },
    attachment: {
      ...objectOf(
        {
          type: { enum: ['image', 'document'] },
          mediaId: { type: 'string', description: "The platform's id of the uploaded file." },
          url: { type: 'string', description: 'Where the file was fetched from.' },
          caption: { type: 'string' },
          filename: { type: 'string' },
        },
        ['caption', 'filename'],
      ),
      description: 'Messaging: the image or document an agent sent; `text` is `[Image] caption` or `[Document: name] caption`.',
    },
    feedback: {
      ...objectOf({ rating, reason: nullable(feedbackReason) }),
      description: 'AI answers, once rated (`PUT …/messages/{messageId}/feedback`): the latest rating.',
    },
    ask: {
      enum: ['answer_feedback', 'satisfaction'],
      description:
        'Messaging: a system message that asked the customer to rate, as Yes / No buttons (`answer_feedback`) or a list of scores 1–5 (`satisfaction`).',
    },
  },
  ['aiNotice', 'citations', 'outcome', 'replyTo', 'agent', 'template', 'attachment', 'feedback', 'ask'],
);

const status = { enum: [...conversationStatuses] } as const;

export const conversationResponse = objectOf({
  conversationId: uuid,
  visitorToken: {
    type: 'string',
    description: 'Send it as x-visitor-token on every request about this conversation; shown once.',
  },
  status,
  locale: { type: 'string' },
  createdAt: timestamp,
  messages: { type: 'array', items: chatMessage },
});

export const historyResponse = objectOf({
  conversationId: uuid,
  status,
  messages: { type: 'array', items: chatMessage },
});

export const conversationStateResponse = objectOf({
  conversationId: uuid,
  status,
  locale: { type: 'string' },
  createdAt: timestamp,
  updatedAt: timestamp,
  closedBy: nullable({
    enum: ['agent', 'idle', 'visitor'],
    description: 'Who closed it; null while open (and for conversations closed before it was kept).',
  }),
  satisfaction: nullable({
    type: 'integer',
    minimum: 1,
    maximum: 5,
    description: "The visitor's score (`PUT …/satisfaction`), once given.",
  }),
});

export const sendMessageRequest = objectOf(
  {
    text: { type: 'string', minLength: 1, maxLength: chatLimits.messageChars, pattern: textPatterns.notBlank.pattern },
    messageId: {
      ...uuid,
      description: 'Optional idempotency key: a message sent again with the same id is taken in once.',
    },
  },
  ['messageId'],
);

export const handoffResponse = objectOf({ status });

const earlierConversations = {
  type: 'array',
  description: "The visitor's conversations with this operator, newest first (at most 20).",
  items: objectOf({
    conversationId: uuid,
    status,
    createdAt: timestamp,
    updatedAt: timestamp,
    title: nullable({ type: 'string', description: "The visitor's first message (its first 120 characters); null before one." }),
    lastMessage: nullable(chatMessage),
  }),
} as const;

export const identityResponse = objectOf({
  visitorToken: {
    type: 'string',
    description:
      "The verified visitor's session (12 hours): send it as x-visitor-token on the routes of any conversation listed here, or when starting a new one; shown once.",
  },
  expiresInSeconds: { type: 'integer', minimum: 1 },
  userId: { type: 'string' },
  conversations: earlierConversations,
});

export const identityConversationsResponse = objectOf({ userId: { type: 'string' }, conversations: earlierConversations });

/** The server-sent events of the chat routes, documented as the stream's schema. */
export const eventStreamSchema = {
  type: 'string',
  description: [
    'A `text/event-stream`. Each event has an `event` name and JSON `data`; durable events also have an `id` (resume with `Last-Event-ID`).',
    '`accepted` {messageId}: the message is taken in (POST only).',
    '`token` {replyTo, delta}: a piece of the AI answer as it is written.',
    '`reset` {replyTo}: drop the tokens received so far for this reply; it starts over.',
    '`citations` {replyTo, citations}: the sources the answer cites.',
    '`done` {replyTo, message, status}: the final reply (`message` is null when no AI reply follows, for example while an agent has the conversation); its text is authoritative.',
    '`message` {message}: a message was added to the conversation (visitor, AI, agent or system).',
    '`status` {status, agentName}: the conversation changed status.',
    '`error` {error: {code, message}}: the stream ends early; `reply_delayed` means the answer will still arrive in the conversation.',
    '`reconnect` {reason, retryMs}: the last event when the server process stops (`shutting_down`); reconnect (with `Last-Event-ID`) and another process answers.',
    'Comment lines (`: keep-alive`) arrive every 15 s.',
  ].join('\n'),
} as const;
