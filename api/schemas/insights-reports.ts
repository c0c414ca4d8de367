import { insightRange } from '#insights/day-range.js';
import { channels } from '#workflows/conversations/types.js';
import { reportLimits } from '#insights/reports.js';
import { tableNames } from '#insights/report-tables.js';
import { nullable, objectOf, timestamp, uuid } from './common.js';
import { insightChannel } from './insights-channel.js';

const day = { type: 'string', format: 'date', examples: ['2026-11-25'] } as const;
const count = { type: 'integer', minimum: 0 } as const;
const rate = (description: string) => ({ ...nullable({ type: 'number', minimum: 0, maximum: 1 }), description }) as const;

export const reportQuery = objectOf(
  {
    operatorId: { ...uuid, description: "The operator (of the user's tenant) whose figures these are" },
    from: {
      ...day,
      description: `First UTC day, \`YYYY-MM-DD\`. Default: 29 days before \`to\` (the last ${insightRange.defaultDays} days)`,
    },
    to: {
      ...day,
      description: `Last UTC day, \`YYYY-MM-DD\`, at most ${insightRange.maxDays} days after \`from\`. Default: today`,
    },
    channel: insightChannel,
  },
  ['from', 'to', 'channel'],
);

export const reportTableParameter = {
  enum: tableNames,
  description: `The table: ${tableNames.map((name) => `\`${name}\``).join(', ')}`,
} as const;

const byChannel = objectOf({ widget: count, messaging: count });

export const reportResponse = objectOf({
  operatorId: uuid,
  from: day,
  to: day,
  channel: { ...nullable({ enum: [...channels] }), description: 'The channel asked for, or null for both' },
  conversations: objectOf({
    total: { ...count, description: 'Conversations started in the range' },
    byChannel,
    byDay: {
      type: 'array',
      items: objectOf({
        day,
        total: count,
        widget: count,
        messaging: count,
        closed: count,
        resolved: count,
        handedOff: count,
        abandoned: count,
      }),
      description:
        'Every day of the range, in order: conversations started (`total`, by channel) and those that closed that day, by outcome',
    },
  }),
  outcomes: objectOf({
    closed: { ...count, description: 'Conversations that closed in the range' },
    resolved: count,
    handedOff: count,
    abandoned: count,
    resolutionRate: rate('AI resolution rate: resolved / closed; null when none closed'),
    handoffRate: rate('Handed off / closed; null when none closed'),
  }),
  handoffReasons: objectOf({
    visitor: { ...count, description: 'The visitor asked for a person' },
    ai: { ...count, description: "The AI handed over (unknowns, the day's answer budget, the messaging window)" },
    agent: { ...count, description: 'An agent took over unasked' },
  }),
  answers: objectOf({ answered: count, unknown: count }),
  firstAgentReply: objectOf({
    count: { ...count, description: 'First agent replies after a handoff' },
    medianSeconds: {
      ...nullable({ type: 'number', minimum: 0 }),
      description: 'Median time from the handoff to the first agent reply, within 5%; null without replies',
    },
  }),
  feedback: objectOf({ up: count, down: count, shareUp: rate('up / (up + down); null without ratings') }),
  satisfaction: objectOf({
    count,
    average: {
      ...nullable({ type: 'number', minimum: 1, maximum: 5 }),
      description: 'Average score, two decimals; null without scores',
    },
    distribution: {
      type: 'array',
      items: objectOf({ score: { type: 'integer', minimum: 1, maximum: 5 }, count }),
      minItems: 5,
      maxItems: 5,
    },
  }),
  topSources: {
    type: 'array',
    maxItems: reportLimits.topSources,
    description: `The ${reportLimits.topSources} most cited sources in the range`,
    items: objectOf({
      key: { type: 'string', description: '`{knowledgeBaseId}/{externalId}`' },
      title: { ...nullable({ type: 'string' }), description: 'Its latest title' },
      citations: count,
    }),
  },
  contentGaps: {
    type: 'array',
    maxItems: reportLimits.contentGaps,
    description: `The ${reportLimits.contentGaps} largest content-gap clusters in the range, on the channel asked for (both without one)`,
    items: objectOf({
      id: { type: 'string' },
      count: { ...count, description: 'Questions in the range (on the channel asked for)' },
      representative: { type: 'string', description: 'The question nearest the centre' },
      reasons: objectOf({ unknown: count, ratedDown: count }),
      lastAskedAt: { ...timestamp, description: 'Its last question (on the channel asked for), whatever the range' },
    }),
  },
});
