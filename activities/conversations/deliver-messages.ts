import { ApplicationFailure, Context } from '@temporalio/activity';
import { createDelivery, DeliveryClaimError, type DeliveryDeps, type DeliveryResult } from '#messaging/delivery.js';
import type { ConversationRef } from '#workflows/conversations/types.js';

export interface DeliveryActivityDeps extends DeliveryDeps {
  /**
   * Kept back from a run's timeout: no send starts later than this before it, so the last one (a
   * Graph call of at most its own timeout) ends before the run's timeout does. Default 15 s.
   */
  reserveMs?: number;
}

/**
 * Sends what of a messaging conversation has not gone out (`lib/messaging/delivery.ts`), within this
 * attempt: its budget is its start-to-close timeout less `reserveMs`, its claim lasts that timeout,
 * and its cancellation stops it between sends. A conversation another run is delivering fails this
 * attempt, for a retry.
 */
export function createDeliveryActivities({ reserveMs = 15_000, ...deps }: DeliveryActivityDeps) {
  const delivery = createDelivery(deps);
  return {
    async deliverMessages(input: { conversation: ConversationRef }): Promise<DeliveryResult> {
      const context = Context.current();
      const timeoutMs = context.info.startToCloseTimeoutMs || 60_000;
      try {
        return await delivery.run(input.conversation, {
          deadline: Date.now() + timeoutMs - reserveMs,
          signal: context.cancellationSignal,
          claimMs: timeoutMs,
        });
      } catch (error) {
        if (error instanceof DeliveryClaimError) throw ApplicationFailure.retryable(error.message, error.code);
        throw error;
      }
    },
  };
}
