import { makeContinueAsNewFunc, proxyActivities, setHandler, sleep, upsertMemo, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { reindexProgressQuery } from './messages.js';
import type { ReindexInput, ReindexKnowledgeBaseWorkflow, ReindexProgress, ReindexResume } from './types.js';

const { listSourcesToReembed, countSourcesToReembed, requestReembeds } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Pages and counts per run; a larger knowledge base continues as new, so the history stays small. */
const stepsPerRun = 200;
/** Counts while waiting are this far apart at first, doubling up to the maximum. */
const firstPollDelayMs = 1_000;
const maxPollDelayMs = 30_000;
/** Counts in a row that find no fewer sources left: the requests still waiting are sent again (another pass). */
const stalledPollsPerPass = 20;
/** Passes before the re-index completes with what could not be re-embedded left over. */
const maxPasses = 3;

/**
 * Re-embeds a knowledge base in the current embedder's space without its owner sending anything
 * again. It lists the knowledge base's sources a page at a time and asks the item workflow of each one
 * still in another space to embed it again (the request takes its turn with the item's ingestions and
 * deletions), then counts, with a durable timer between counts, until none is left in another space.
 * Items written meanwhile by ordinary ingestion are in the current space and are simply not asked. A
 * source that will not move (its old chunks are gone) is asked again in a later pass, up to
 * `maxPasses`; the re-index then completes with it counted as remaining.
 *
 * One runs per knowledge base (the workflow id is the knowledge base's). Progress: the
 * `reindexProgress` query, and the memo `progress`, which the API and the Temporal UI read.
 */
export async function reindexKnowledgeBaseWorkflow(input: ReindexInput): Promise<ReindexProgress> {
  const { tenantId, knowledgeBaseId } = input;
  const knowledgeBase = { tenantId, knowledgeBaseId };
  // The client that started it wrote a first progress into the memo; its start time is kept.
  const startedAt = (workflowInfo().memo?.progress as ReindexProgress | undefined)?.startedAt ?? now();
  const state: ReindexResume = input.resume ?? {
    progress: { state: 'running', total: null, sent: 0, remaining: null, startedAt, completedAt: null },
    pass: 1,
    phase: 'sending',
    polls: 0,
    stalledPolls: 0,
  };
  const { progress } = state;
  setHandler(reindexProgressQuery, () => progress);
  const publish = publisher(progress);

  if (progress.total === null) {
    progress.total = progress.remaining = await countSourcesToReembed(knowledgeBase);
    if (progress.total === 0) return complete(progress, publish);
    publish();
  }

  for (let steps = 1; ; steps++) {
    if (state.phase === 'sending') {
      const page = await listSourcesToReembed({ ...knowledgeBase, ...(state.cursor ? { cursor: state.cursor } : {}) });
      if (page.sources.length > 0) await requestReembeds({ ...knowledgeBase, sources: page.sources });
      progress.sent += page.sources.length;
      state.cursor = page.cursor;
      if (!page.cursor) Object.assign(state, { phase: 'waiting', polls: 0, stalledPolls: 0 });
    } else {
      const remaining = await countSourcesToReembed(knowledgeBase);
      state.stalledPolls = remaining < (progress.remaining ?? Infinity) ? 0 : state.stalledPolls + 1;
      progress.remaining = remaining;
      if (remaining === 0) return complete(progress, publish);
      if (state.stalledPolls >= stalledPollsPerPass) {
        if (state.pass >= maxPasses) return complete(progress, publish);
        Object.assign(state, { pass: state.pass + 1, phase: 'sending', cursor: undefined });
      } else {
        await sleep(Math.min(maxPollDelayMs, firstPollDelayMs * 2 ** state.polls));
        state.polls += 1;
      }
    }
    publish();
    if (steps >= stepsPerRun || workflowInfo().continueAsNewSuggested) {
      const continueAsNew = makeContinueAsNewFunc<typeof reindexKnowledgeBaseWorkflow>({
        memo: { progress },
        typedSearchAttributes: workflowInfo().typedSearchAttributes,
      });
      return continueAsNew({ tenantId, knowledgeBaseId, resume: withoutUndefined(state) });
    }
  }
}

// The signature its clients are given (`types.ts`).
reindexKnowledgeBaseWorkflow satisfies ReindexKnowledgeBaseWorkflow;

function complete(progress: ReindexProgress, publish: () => void): ReindexProgress {
  progress.state = 'completed';
  progress.completedAt = now();
  publish();
  return progress;
}

/**
 * Writes the progress to the memo `progress` when it changed since the last time: the Temporal UI
 * shows it, and the API reads it with or without a worker to answer a query.
 */
function publisher(progress: ReindexProgress): () => void {
  let published = JSON.stringify(workflowInfo().memo?.progress ?? null);
  return () => {
    const current = JSON.stringify(progress);
    if (current === published) return;
    upsertMemo({ progress: { ...progress } });
    published = current;
  };
}

/** Workflow time (the time of the workflow task), as ISO 8601: deterministic on replay. */
function now(): string {
  return new Date().toISOString();
}

/** The resume state as JSON carries it (an absent cursor, not an undefined one). */
function withoutUndefined(state: ReindexResume): ReindexResume {
  const { cursor, ...rest } = state;
  return cursor ? { ...rest, cursor } : rest;
}
