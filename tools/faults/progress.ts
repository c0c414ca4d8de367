/**
 * When the workloads last saw something done (an item searchable, an answer, a reply received): the
 * campaign measures a fault's recovery as the time from the fault to the first progress after the
 * service came back.
 */
export function createProgress(now: () => number = () => performance.now()) {
  const moments: number[] = [];
  return {
    note(): void {
      moments.push(now());
    },
    /** The first progress at or after `at`, or undefined when nothing moved since. */
    firstAfter(at: number): number | undefined {
      return moments.find((moment) => moment >= at);
    },
    get count(): number {
      return moments.length;
    },
  };
}

export type Progress = ReturnType<typeof createProgress>;

/** One thing the campaign found wrong, said so that a person can look for it. */
export interface Problem {
  workload: 'items' | 'chats' | 'messaging' | 'processes';
  kind: 'lost' | 'duplicated' | 'stuck' | 'stale' | 'failed' | 'unexpected';
  what: string;
}
