import { insightRange } from '#insights/day-range.js';
import { slaMetrics } from '#workflows/conversations/types.js';
import { nullable, objectOf, uuid } from './common.js';

const day = { type: 'string', format: 'date', examples: ['2026-11-25'] } as const;

export const slaReportQuery = objectOf(
  {
    from: { ...day, description: `First UTC day, \`YYYY-MM-DD\`. Default: the last ${insightRange.defaultDays} days` },
    to: {
      ...day,
      description: `Last UTC day, \`YYYY-MM-DD\`, at most ${insightRange.maxDays} days after \`from\`. Default: today`,
    },
  },
  ['from', 'to'],
);

const outcomes = objectOf({ met: { type: 'integer' }, breached: { type: 'integer' } });
const figures = objectOf(
  Object.fromEntries(slaMetrics.map((metric) => [metric, outcomes])) as Record<(typeof slaMetrics)[number], typeof outcomes>,
);

export const slaReportResponse = objectOf({
  from: day,
  to: day,
  total: figures,
  teams: {
    type: 'array',
    items: objectOf({ teamId: nullable(uuid), figures }),
    description: 'Per team the conversation was routed to (null: none).',
  },
  agents: {
    type: 'array',
    items: objectOf({ agentId: nullable(uuid), figures }),
    description: 'Per agent the conversation was assigned to when the target was met or breached (null: nobody).',
  },
});
