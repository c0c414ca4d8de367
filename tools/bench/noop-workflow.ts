import { proxyActivities } from '@temporalio/workflow';

/** The one activity it runs, provided by `noop-worker.ts`. */
export interface NoopActivities {
  benchNoop(): Promise<void>;
}

const { benchNoop } = proxyActivities<NoopActivities>({ startToCloseTimeout: '1 minute' });

/** The benchmark's baseline: a workflow with one activity that does nothing but count itself. */
export async function benchNoopWorkflow(): Promise<void> {
  await benchNoop();
}
