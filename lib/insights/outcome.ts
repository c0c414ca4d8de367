import type { HandoffBy } from '#workflows/conversations/types.js';
import type { Outcome } from './day-counters.js';

/** What a conversation's outcome is decided from when it closes (docs/insights.md, "Outcomes"). */
export interface OutcomeFacts {
  /** Who first handed it to a person, or null: none did. */
  handoffBy: HandoffBy | null;
  /** At least one question was answered from the knowledge base. */
  answered: boolean;
  /** An answer of it is rated `down`. */
  ratedDown: boolean;
}

/**
 * `handed_off` when a person was asked for or took over; `resolved` with no handoff, a question
 * answered and no answer rated down; `abandoned` otherwise.
 */
export function decideOutcome({ handoffBy, answered, ratedDown }: OutcomeFacts): Outcome {
  if (handoffBy) return 'handed_off';
  return answered && !ratedDown ? 'resolved' : 'abandoned';
}
