import type { ConversationRecords } from '../records.js';
import type { SearchChanges } from './changes.js';

interface ScoresSatisfaction {
  rateSatisfaction(input: { conversationId: string; score: number }): Promise<unknown>;
}

/**
 * The ratings store (`lib/insights/ratings.ts`, a library above this one), marking the conversation
 * changed for the search index once a satisfaction score is written: the `rating` filter reads it.
 * A score that was refused (a string: `not_found`, `not_closed_by_agent`) changes nothing.
 */
export function markingSatisfaction<Ratings extends ScoresSatisfaction>(
  ratings: Ratings,
  records: Pick<ConversationRecords, 'get'>,
  changes: Pick<SearchChanges, 'markChanged'>,
): Ratings {
  return {
    ...ratings,
    async rateSatisfaction(input: { conversationId: string; score: number }) {
      const result = await ratings.rateSatisfaction(input);
      if (typeof result === 'object' && result !== null) {
        const record = await records.get(input.conversationId);
        if (record) await changes.markChanged(record.tenantId, record.conversationId);
      }
      return result;
    },
  };
}
