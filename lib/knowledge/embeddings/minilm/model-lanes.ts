import type { Lane } from '../embedder.js';

/** Whose inputs the model takes first when several wait: a visitor's question, then a person's change, then imports. */
export const laneOrder: readonly Lane[] = ['query', 'interactive', 'bulk'];

export interface LaneQueueOptions {
  /** Texts of one model call at most: few, so a question never waits behind much. */
  textsPerCall: number;
  /**
   * Model calls handed to the model's thread(s) at once: one running and one waiting per thread, so
   * a thread starts its next call at once even while this thread's event loop is busy.
   */
  callsInFlight: number;
  dimensions: number;
  /** Told of every model call: its lane, how long each of its texts waited for it, how long it ran. */
  observer?: LaneObserver;
}

export interface LaneObserver {
  called(lane: Lane, call: { waitedSeconds: number[]; ranSeconds: number }): void;
}

/** What a model call gives back: the vectors of its texts, one after the other, and how long the model ran on them. */
export interface ModelCall {
  vectors: Float64Array;
  seconds: number;
}

interface Waiting {
  text: string;
  /** `performance.now()` when it was queued. */
  since: number;
  resolve(rows: Float64Array): void;
  reject(error: unknown): void;
}

/**
 * The local model's queue: texts wait in the lane of whoever waits for them, and each model call
 * takes the next few texts of the highest lane that has any. Concurrent callers' texts share calls
 * (an import's chunks go together), and a question or a person's change overtakes every waiting
 * chunk of an import: it waits at most for the calls already handed to the model.
 */
export function createLaneQueue(run: (texts: string[]) => Promise<ModelCall>, options: LaneQueueOptions) {
  const lanes = new Map<Lane, Waiting[]>(laneOrder.map((lane) => [lane, []]));
  let inFlight = 0;

  function dispatch(): void {
    while (inFlight < options.callsInFlight) {
      const lane = laneOrder.find((name) => lanes.get(name)!.length > 0);
      if (!lane) return;
      const taken = lanes.get(lane)!.splice(0, options.textsPerCall);
      inFlight++;
      const started = performance.now();
      run(taken.map((entry) => entry.text))
        .then(
          ({ vectors, seconds }) => {
            options.observer?.called(lane, {
              waitedSeconds: taken.map((entry) => (started - entry.since) / 1000),
              ranSeconds: seconds,
            });
            taken.forEach((entry, row) =>
              entry.resolve(vectors.subarray(row * options.dimensions, (row + 1) * options.dimensions)),
            );
          },
          (error: unknown) => taken.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          inFlight--;
          dispatch();
        });
    }
  }

  return {
    /** The vector of each text, in input order. */
    submit(texts: string[], lane: Lane): Promise<Float64Array[]> {
      const queue = lanes.get(lane)!;
      const since = performance.now();
      const results = texts.map(
        (text) => new Promise<Float64Array>((resolve, reject) => queue.push({ text, since, resolve, reject })),
      );
      dispatch();
      return Promise.all(results);
    },

    /** Texts waiting per lane. */
    waiting(): Record<Lane, number> {
      return Object.fromEntries(laneOrder.map((lane) => [lane, lanes.get(lane)!.length])) as Record<Lane, number>;
    },
  };
}
