/**
 * How a worker process stops. On SIGTERM (or SIGINT) the SDK's runtime asks every Temporal worker of
 * the process to shut down: each stops polling at once, lets the activities it is running finish
 * for up to the grace time, then cancels those still running (their attempts fail and are retried
 * on another worker). An activity that ignores its cancellation holds the process for at most
 * `forceMarginMs` more; then `run()` fails and the process exits non-zero.
 */
export const forceMarginMs = 10_000;

/** The Temporal `Worker.create` options that carry the shutdown deadlines. */
export function workerShutdownOptions(graceMs: number): { shutdownGraceTime: number; shutdownForceTime: number } {
  return { shutdownGraceTime: graceMs, shutdownForceTime: graceMs + forceMarginMs };
}

/** The longest a worker process may take to stop: what the orchestrator's kill deadline must exceed. */
export function workerStopDeadlineMs(graceMs: number): number {
  return graceMs + forceMarginMs;
}

/**
 * Whether a shutdown signal came before the Temporal workers existed (while the process was still
 * starting): the SDK only stops workers that run, so the entry checks this before polling.
 */
export function watchEarlyShutdown(): { readonly requested: boolean; stop(): void } {
  let requested = false;
  const note = () => (requested = true);
  process.once('SIGTERM', note);
  process.once('SIGINT', note);
  return {
    get requested() {
      return requested;
    },
    stop() {
      process.off('SIGTERM', note);
      process.off('SIGINT', note);
    },
  };
}
