import { withTimeout } from '#platform/time-limit.js';

/** Named closing steps, run in the order given. */
export type ClosingSteps = Record<string, () => Promise<unknown>>;

/**
 * Runs a test bed's closing steps in order, each within `limitMs`. A step that fails or overruns
 * does not keep the steps after it from running; the teardown then fails naming it. A hang is
 * reported as the step that hung, in the hook's own failure, instead of ava's inactivity timeout
 * saying only that the test file failed to exit.
 */
export async function tearDown(steps: ClosingSteps, limitMs = 30_000): Promise<void> {
  const failures: string[] = [];
  for (const [name, step] of Object.entries(steps)) {
    try {
      await withTimeout(step(), limitMs, 'not closed');
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
    }
  }
  if (failures.length > 0) throw new Error(`teardown failed: ${failures.join('; ')}`);
}
