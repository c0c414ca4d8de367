import { heartbeat } from '@temporalio/activity';

/** How often a running activity tells Temporal it is alive; the heartbeat timeout is a few of these. */
export const heartbeatEveryMs = 5_000;

/**
 * Runs `work` while heartbeating on a timer, so that Temporal notices within its heartbeat timeout
 * when the attempt is gone (the worker died, or the task never reached the code) instead of waiting
 * for the start-to-close timeout. A call that hangs is bounded by its own client timeout. For work on
 * our own services only: a timer says nothing of progress, so work that waits on a tenant's source
 * heartbeats on progress instead (`worker/connector-deps.ts`), and is cut when it makes none.
 */
export async function withHeartbeats<T>(work: () => Promise<T>): Promise<T> {
  heartbeat();
  const timer = setInterval(() => heartbeat(), heartbeatEveryMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
