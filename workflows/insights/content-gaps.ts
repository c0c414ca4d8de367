import { allHandlersFinished, condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { gapsChangedSignal } from './messages.js';
import type { ContentGapsInput, ContentGapsWorkflow } from './types.js';

// Loading and clustering 50,000 gaps takes seconds; Redis away is retried.
const { clusterContentGaps } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** With nothing to do for this long it ends; the next signal-with-start begins it again. */
const idleMs = 60 * 60 * 1000;
/** A stream of gaps that never settles is clustered at least this many settle periods apart. */
const maxSettlePeriods = 10;
const maxHistoryEvents = 2_000;

/**
 * An operator's content-gaps clustering (signal-with-start, one per operator): each recorded gap,
 * and each cluster marked or unmarked, signals it; once no signal came for `settleSeconds` (a burst
 * is clustered once), it clusters every gap of the operator (`clusterContentGaps`), then waits for
 * the next. It continues as new before its history grows long, and ends after an idle hour.
 */
export async function contentGapsWorkflow(input: ContentGapsInput): Promise<void> {
  let signals = 0;
  let pending = input.pending ?? true;
  setHandler(gapsChangedSignal, () => {
    signals += 1;
    pending = true;
  });
  const settleMs = input.settleSeconds * 1000;

  for (;;) {
    if (!pending && !(await condition(() => pending, idleMs))) return;
    for (let periods = 0; periods < maxSettlePeriods; periods++) {
      const seen = signals;
      if (!(await condition(() => signals !== seen, settleMs))) break;
    }
    pending = false;
    await clusterContentGaps({ tenantId: input.tenantId, operatorId: input.operatorId });
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > maxHistoryEvents) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof contentGapsWorkflow>({ ...input, pending });
    }
  }
}

// The signature its clients are given (`types.ts`).
contentGapsWorkflow satisfies ContentGapsWorkflow;
