import { proxyActivities } from '@temporalio/workflow';
import type { NoopActivities } from './noop-worker.js';

const { benchNoop } = proxyActivities<NoopActivities>({ startToCloseTimeout: '1 minute' });

/** The benchmark's baseline: a workflow with one activity that does nothing but count itself. */
export async function benchNoopWorkflow(): Promise<void> {
  await benchNoop();
}
