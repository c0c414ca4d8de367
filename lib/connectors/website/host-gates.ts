import { setTimeout as delay } from 'node:timers/promises';
import pLimit from 'p-limit';

export interface HostGateOptions {
  /** Requests in flight to one host at most. */
  concurrency: number;
  /** The least time between two requests' starts to one host (its rate, or its robots.txt Crawl-delay). */
  intervalMs: (host: string) => number;
  /** When each host was last asked (epoch ms), by an earlier step of the crawl: the first request keeps its distance. */
  lastStarts?: Record<string, number>;
  sleep?: (ms: number) => Promise<unknown>;
  now?: () => number;
}

/**
 * Politeness per host: at most `concurrency` requests to a host at once, their starts at least
 * `intervalMs(host)` apart, whatever the other hosts do. `maxInFlight` is what was measured, not what
 * was meant: the benchmark reports it.
 */
export function createHostGates({ concurrency, intervalMs, lastStarts = {}, sleep = delay, now = Date.now }: HostGateOptions) {
  const gates = new Map<
    string,
    { limit: ReturnType<typeof pLimit>; lastStart: number | undefined; inFlight: number; maxInFlight: number }
  >();

  function gateOf(host: string) {
    let gate = gates.get(host);
    if (!gate) {
      gate = { limit: pLimit(concurrency), lastStart: lastStarts[host], inFlight: 0, maxInFlight: 0 };
      gates.set(host, gate);
    }
    return gate;
  }

  return {
    /** Runs `request` when `host` may be asked again. */
    run<T>(host: string, request: () => Promise<T>): Promise<T> {
      const gate = gateOf(host);
      return gate.limit(async () => {
        // Each waiter looks again when it wakes: a timer that fires late (an event loop busy reading a
        // page) must not let two requests out together, so the interval holds between actual starts.
        const wait = () => (gate.lastStart === undefined ? 0 : gate.lastStart + intervalMs(host) - now());
        for (let left = wait(); left > 0; left = wait()) await sleep(left);
        gate.lastStart = now();
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

    /** When each host was last asked (for the next step's `lastStarts`). */
    lastStarts: (): Record<string, number> =>
      Object.fromEntries([...gates].flatMap(([host, gate]) => (gate.lastStart === undefined ? [] : [[host, gate.lastStart]]))),
  };
}

export type HostGates = ReturnType<typeof createHostGates>;
