import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';

/** What spending one answer of an operator's day found. */
export interface AnswerBudgetSpend {
  /** Whether the answer fits in today's budget. */
  allowed: boolean;
  /** Seconds until the budget starts again, at the next midnight UTC. */
  retryAfterSeconds: number;
}

/**
 * Each operator's daily budget of AI answers, the bound on what one public operator key can cost in
 * model calls. Counted in Redis per operator and UTC day, so every API and worker process shares
 * it; a day's counter expires a day after the day ends.
 */
export function createAnswerBudget(
  redis: Pick<RedisClient, 'multi'>,
  options: { prefix: string; perDay: number },
  now: () => Date = () => new Date(),
) {
  /** Spends one of `perDay` answers of `owner` for today. */
  async function spendOf(owner: string, perDay: number): Promise<AnswerBudgetSpend> {
    const at = now();
    const day = at.toISOString().slice(0, 10);
    const nextDay = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
    const key = `${options.prefix}:answer-budget:${owner}:${day}`;
    const [spent] = await redis
      .multi()
      .incr(key)
      .expireAt(key, Math.ceil(nextDay / 1000) + 86_400)
      .exec();
    return {
      allowed: Number(spent) <= perDay,
      retryAfterSeconds: Math.max(1, Math.ceil((nextDay - at.getTime()) / 1000)),
    };
  }

  return tagUnavailable('redis', {
    spend: (operatorId: string): Promise<AnswerBudgetSpend> => spendOf(operatorId, options.perDay),

    /**
     * Spends one of a share of the operator's answers for today: a client address's or a conversation's
     * (`share` names it, and never collides with an operator's id), so no one of them can spend the day's.
     */
    spendShare: (share: string, perDay: number): Promise<AnswerBudgetSpend> => spendOf(`share:${share}`, perDay),
  });
}

export type AnswerBudget = ReturnType<typeof createAnswerBudget>;
