import { setTimeout as delay } from 'node:timers/promises';
import pLimit from 'p-limit';

export interface HostGateOptions {
  /** Requests in flight to one host at most. */
  concurrency: number;
  /** The least time between two requests' starts to one host (its rate, or its robots.txt Crawl-delay). */
  intervalMs: (host: string) => number;
  sleep?: (ms: number) => Promise<unknown>;
  now?: () => number;
}

/**
 * Politeness per host: at most `concurrency` requests to a host at once, their starts at least
 * `intervalMs(host)` apart, whatever the other hosts do. `maxInFlight` is what was measured, not what
 * was meant: the benchmark reports it.
 */
export function createHostGates({ concurrency, intervalMs, sleep = delay, now = Date.now }: HostGateOptions) {
  const gates = new Map<string, { limit: ReturnType<typeof pLimit>; nextStart: number; inFlight: number; maxInFlight: number }>();

  function gateOf(host: string) {
    let gate = gates.get(host);
    if (!gate) {
      gate = { limit: pLimit(concurrency), nextStart: 0, inFlight: 0, maxInFlight: 0 };
      gates.set(host, gate);
    }
    return gate;
  }

  return {
    /** Runs `request` when `host` may be asked again. */
    run<T>(host: string, request: () => Promise<T>): Promise<T> {
      const gate = gateOf(host);
      return gate.limit(async () => {
        const start = Math.max(now(), gate.nextStart);
        gate.nextStart = start + intervalMs(host);
        const wait = start - now();
        if (wait > 0) await sleep(wait);
        gate.inFlight += 1;
        gate.maxInFlight = Math.max(gate.maxInFlight, gate.inFlight);
        try {
          return await request();
        } finally {
          gate.inFlight -= 1;
        }
      });
    },

    /** The most requests seen in flight to any one host. */
    maxInFlight: (): number => Math.max(0, ...[...gates.values()].map((gate) => gate.maxInFlight)),
  };
}

export type HostGates = ReturnType<typeof createHostGates>;
