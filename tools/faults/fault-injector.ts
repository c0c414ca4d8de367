import { setTimeout as sleep } from 'node:timers/promises';
import type { Random } from '#fuzz/hostile-requests.js';
import type { Progress } from './progress.js';

export const faultKinds = ['worker', 'weaviate', 'redis', 'temporal'] as const;
export type FaultKind = (typeof faultKinds)[number];

/** How the campaign takes a part of the stack down (SIGKILL: a crash) and brings it back. */
export interface FaultTargets {
  kill(kind: FaultKind): Promise<void>;
  revive(kind: FaultKind): Promise<void>;
}

export interface FaultRecord {
  kind: FaultKind;
  /** performance.now() of the kill, and of the service answering again. */
  killedAt: number;
  upAt: number;
}

export interface FaultTiming {
  /** Between faults, and how long a part stays down, in milliseconds. */
  gapMs: [number, number];
  downMs: [number, number];
}

/**
 * Faults at random moments while `working()` says the workloads still send: a random part killed,
 * left down a random while, then revived; one at a time, so that each recovery can be timed.
 */
export async function injectFaults(
  targets: FaultTargets,
  random: Random,
  working: () => boolean,
  timing: FaultTiming,
  onFault: (record: FaultRecord) => void = () => undefined,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (;;) {
    await sleep(random(...timing.gapMs));
    if (!working()) return records;
    const kind = faultKinds[random(0, faultKinds.length - 1)]!;
    const killedAt = performance.now();
    await targets.kill(kind);
    await sleep(random(...timing.downMs));
    await targets.revive(kind);
    const record = { kind, killedAt, upAt: performance.now() };
    records.push(record);
    onFault(record);
  }
}

/** Seconds from the fault to the first progress after its part came back; undefined when nothing moved after. */
export function recoverySeconds(record: FaultRecord, progress: Progress): number | undefined {
  const first = progress.firstAfter(record.upAt);
  return first === undefined ? undefined : (first - record.killedAt) / 1000;
}
