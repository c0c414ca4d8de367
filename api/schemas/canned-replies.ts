import { cannedReplyLimits, cannedReplyScopes } from '#conversations/canned-replies.js';
import { cannedReplyPlaceholders } from '#conversations/canned-reply-placeholders.js';
import { nullable, objectOf, timestamp, uuid } from './common.js';
import { textPatterns } from './text-patterns.js';

/** How many replies a list answers by default and at most (a tenant holds at most `cannedReplyLimits.perTenant`). */
export const cannedReplyListLimits = { default: 200, max: cannedReplyLimits.perTenant } as const;

/** A team's id as the teams of a tenant are named (`lib/tenancy/`): a UUID today; any id of these characters. */
const teamIdPattern = '[A-Za-z0-9_-]{1,64}';
const maxTeamIds = 20;

const placeholderList = Object.entries(cannedReplyPlaceholders)
  .map(([name, meaning]) => `\`{{${name}}}\` (${meaning})`)
  .join('; ');

/** Text a person writes: not blank, and well-formed Unicode (no lone surrogate, which no store keeps). */
const writtenText = <const Max extends number>(maxLength: Max, description: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength,
    allOf: [{ pattern: textPatterns.notBlank.pattern }, { pattern: textPatterns.wellFormed.pattern }],
    description,
  }) as const;

const shortcut = {
  type: 'string',
  pattern: `^${cannedReplyLimits.shortcut.source.slice(1, -1)}$`,
  description:
    'What an agent types after `/` in the reply box: 1 to 40 of lower-case letters, digits, `_` and `-`. Unique within its scope (the tenant, one team, or one user).',
  examples: ['refund'],
} as const;

const scope = {
  enum: [...cannedReplyScopes],
  description:
    '`tenant`: shared by everyone of the tenant; `team`: the team of `teamId`; `personal`: seen and used only by the user who saved it. ' +
    'Only admins save `tenant` and `team` replies.',
} as const;

const teamId = {
  type: 'string',
  pattern: `^${teamIdPattern}$`,
  description: 'The team of a `team` reply (required for that scope, refused for the others).',
} as const;

const replyText = writtenText(
  cannedReplyLimits.textChars,
  `The reply, with placeholders filled in when it is sent: ${placeholderList}. ` +
    '`{{contact.first_name | there}}` falls back to the text after `|` when the conversation has no value for it; without a fallback, a missing value refuses the send (400 `placeholder_missing`). ' +
    'A placeholder outside this set is refused when the reply is saved (400 `unknown_placeholder`, naming it).',
);

export const cannedReplyRequest = objectOf(
  {
    shortcut,
    title: writtenText(cannedReplyLimits.titleChars, 'What the reply is about, shown in the list and searched.'),
    text: replyText,
    scope,
    teamId,
  },
  ['teamId'],
);

export const cannedReplyResponse = objectOf({
  id: uuid,
  scope,
  teamId: nullable({ type: 'string', description: 'The team of a `team` reply; null for the others.' }),
  shortcut: { type: 'string' },
  title: { type: 'string' },
  text: { type: 'string', description: 'As saved, placeholders unfilled.' },
  placeholders: {
    type: 'array',
    items: { type: 'string' },
    description: 'The placeholders the text uses, each once, such as `contact.name`.',
  },
  editable: {
    type: 'boolean',
    description: 'Whether the caller may change or delete it: their own personal reply, or (admins) a tenant or team reply.',
  },
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const cannedReplyListQuery = objectOf(
  {
    q: {
      type: 'string',
      maxLength: 200,
      pattern: textPatterns.wellFormed.pattern,
      description:
        'Search: a shortcut (or its beginning; a leading `/` is ignored), or words that begin words of the title or text. Best matches first: the exact shortcut, shortcuts that begin with it, title matches, then text matches.',
    },
    teamId: {
      type: 'string',
      pattern: `^${teamIdPattern}(,${teamIdPattern}){0,${maxTeamIds - 1}}$`,
      description: `The caller's teams, comma-separated (at most ${maxTeamIds}): their replies are listed too.`,
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: cannedReplyListLimits.max,
      default: cannedReplyListLimits.default,
    },
  },
  ['q', 'teamId', 'limit'],
);

export const cannedReplyListResponse = objectOf({
  cannedReplies: {
    type: 'array',
    items: cannedReplyResponse,
    description: 'By relevance when searched, else by shortcut (the same shortcut: personal, then team, then tenant).',
  },
});

export const cannedMessageRequest = objectOf(
  {
    cannedReplyId: { ...uuid, description: 'A canned reply the caller may use.' },
    messageId: { ...uuid, description: 'Optional idempotency key: a message sent again with the same id is sent once.' },
  },
  ['messageId'],
);

export const cannedReplyPreviewResponse = objectOf({
  cannedReplyId: uuid,
  text: {
    type: 'string',
    description: 'The reply as the customer would read it, placeholders filled in for this conversation and agent.',
  },
});
