import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { runScript } from '#platform/redis-scripts.js';
import { slaMetrics, type SlaMetric } from '#workflows/conversations/types.js';
import { dayExpiry, dayOf, daysBetween } from './day-counters.js';

export type SlaOutcome = 'met' | 'breached';

/** One clock's outcome, as counted: whose (the team, the agent who had it), which, and when it was decided. */
export interface SlaFact {
  tenantId: string;
  conversationId: string;
  metric: SlaMetric;
  /** When the clock started (epoch ms): it names the clock among a conversation's next responses. */
  cycle: number;
  outcome: SlaOutcome;
  at: number;
  teamId: string | null;
  agentId: string | null;
}

/** Met and breached of each metric. */
export type SlaFigures = Record<SlaMetric, Record<SlaOutcome, number>>;

export interface SlaReport {
  total: SlaFigures;
  teams: Array<{ teamId: string | null; figures: SlaFigures }>;
  agents: Array<{ agentId: string | null; figures: SlaFigures }>;
}

// KEYS: the clock's once-key, the day's counters. ARGV: the outcome, the once-key's and the day's expiry
// (epoch seconds), then the fields to count. A clock is counted once, met or breached, whatever runs again.
const countOnceScript = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EXAT', ARGV[2]) then return 0 end
for i = 4, #ARGV do redis.call('HINCRBY', KEYS[2], ARGV[i], 1) end
redis.call('EXPIREAT', KEYS[2], ARGV[3])
return 1
`;

const none = 'none';

/**
 * Service-level outcomes per tenant and UTC day (a hash per day: `total|team:<id>|agent:<id>` with the
 * metric and outcome), for the insights' SLA report: met and breached, per team and per agent.
 */
export function createSlaCounts(redis: RedisClient, prefix: string) {
  const dayKey = (tenantId: string, day: string) => `${prefix}:insights:${tenantId}:sla:${day}`;
  const onceKey = (fact: SlaFact) => `${prefix}:conversation:${fact.conversationId}:sla:${fact.metric}:${fact.cycle}`;

  return tagUnavailable('redis', {
    /** Counts the clock's outcome; false when it was counted already (a step run again). */
    async count(fact: SlaFact): Promise<boolean> {
      const day = dayOf(fact.at);
      const field = (whose: string) => `${whose}|${fact.metric}|${fact.outcome}`;
      const fields = [field('total'), field(`team:${fact.teamId ?? none}`), field(`agent:${fact.agentId ?? none}`)];
      const expiry = String(dayExpiry(day));
      return (
        (await runScript(
          redis,
          countOnceScript,
          [onceKey(fact), dayKey(fact.tenantId, day)],
          [fact.outcome, expiry, expiry, ...fields],
        )) === 1
      );
    },

    /** The outcomes of the days from `from` to `to` (inclusive), summed. */
    async report(tenantId: string, from: string, to: string): Promise<SlaReport> {
      const days = await Promise.all(daysBetween(from, to).map((day) => redis.hGetAll(dayKey(tenantId, day))));
      const total = emptyFigures();
      const teams = new Map<string, SlaFigures>();
      const agents = new Map<string, SlaFigures>();
      for (const counts of days)
        for (const [field, value] of Object.entries(counts)) {
          const [whose, metric, outcome] = field.split('|') as [string, SlaMetric, SlaOutcome];
          const add = (figures: SlaFigures) => (figures[metric][outcome] += Number(value));
          if (whose === 'total') add(total);
          else if (whose.startsWith('team:')) add(figuresOf(teams, whose.slice(5)));
          else if (whose.startsWith('agent:')) add(figuresOf(agents, whose.slice(6)));
        }
      const id = (key: string) => (key === none ? null : key);
      return {
        total,
        teams: [...teams].map(([teamId, figures]) => ({ teamId: id(teamId), figures })),
        agents: [...agents].map(([agentId, figures]) => ({ agentId: id(agentId), figures })),
      };
    },
  });
}

export type SlaCounts = ReturnType<typeof createSlaCounts>;

function emptyFigures(): SlaFigures {
  return Object.fromEntries(slaMetrics.map((metric) => [metric, { met: 0, breached: 0 }])) as SlaFigures;
}

function figuresOf(map: Map<string, SlaFigures>, key: string): SlaFigures {
  let figures = map.get(key);
  if (!figures) map.set(key, (figures = emptyFigures()));
  return figures;
}
