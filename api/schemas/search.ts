import { channels, conversationStatuses } from '#workflows/conversations/types.js';
import { searchLimits } from '#conversations/search/conversation-search.js';
import { snippetLimits } from '#conversations/search/snippets.js';
import { conversationSummary } from './agent.js';
import { objectOf, text, timestamp, uuid } from './common.js';

/** A page of search results: 20 by default, at most 50. */
export const searchPageLimits = { default: 20, max: 50, similarMax: 20 } as const;

const id = (description: string) => text({ minLength: 1, maxLength: 200, description });

export const searchQuery = objectOf(
  {
    q: text({
      minLength: 1,
      maxLength: searchLimits.queryChars,
      description:
        "The words to find (every one of them, in any of the conversation's messages or its contact's name and e-mail; case and punctuation ignored).",
    }),
    status: { enum: [...conversationStatuses], description: 'Only conversations in this status now.' },
    channel: { enum: [...channels], description: '`widget` or `messaging`.' },
    teamId: id('Only conversations routed to this team.'),
    agentId: id('Only conversations assigned to this agent, or that this agent has.'),
    from: { ...timestamp, description: 'Only conversations active on or after this time (their last message or change).' },
    to: { ...timestamp, description: 'Only conversations started on or before this time.' },
    rating: { type: 'integer', minimum: 1, maximum: 5, description: 'Only conversations the visitor scored so (1–5).' },
    cursor: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        'The `nextCursor` of the previous page: the same results, the next page (the other parameters but `limit` are those of the first page). Results expire 15 minutes after the first page: 400 `cursor_expired`.',
    },
    limit: { type: 'integer', minimum: 1, maximum: searchPageLimits.max, default: searchPageLimits.default },
  },
  ['status', 'channel', 'teamId', 'agentId', 'from', 'to', 'rating', 'cursor', 'limit'],
);

const matchedMessage = objectOf(
  {
    messageId: { type: 'string' },
    author: {
      enum: ['visitor', 'ai', 'agent', 'note'],
      description: "`note`: an agent's private note (never shown to the visitor).",
    },
    createdAt: timestamp,
    agentName: { type: 'string', description: "Who wrote it, for agents' messages and notes." },
    snippet: {
      type: 'string',
      maxLength: snippetLimits.chars + 2,
      description: `Up to ${snippetLimits.chars} characters of the message around the first word found, \`…\` where cut.`,
    },
    highlights: {
      type: 'array',
      description: 'Where the words found are in `snippet` (UTF-16 offsets, `end` excluded).',
      items: objectOf({ start: { type: 'integer', minimum: 0 }, end: { type: 'integer', minimum: 0 } }),
    },
  },
  ['agentName'],
);

export const searchHit = objectOf({
  conversation: conversationSummary,
  matches: {
    type: 'array',
    maxItems: snippetLimits.messages,
    items: matchedMessage,
    description: `Up to ${snippetLimits.messages} of its messages holding the most of the words, oldest first (none when only the contact matched).`,
  },
});

export const searchResponse = objectOf({
  results: { type: 'array', items: searchHit, description: 'Best match first.' },
  nextCursor: {
    oneOf: [{ type: 'string' }, { type: 'null' }],
    description: 'Pass as `cursor` for the next page; null on the last.',
  },
});

export const similarQuery = objectOf(
  { limit: { type: 'integer', minimum: 1, maximum: searchPageLimits.similarMax, default: 5 } },
  ['limit'],
);

export const similarResponse = objectOf({
  conversationId: uuid,
  similar: { type: 'array', items: conversationSummary, description: 'Most alike first.' },
});
