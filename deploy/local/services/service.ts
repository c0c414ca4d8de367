import type { ManagedProcess } from '../processes.js';

/** Where a stack keeps its state: one data folder, with logs and pid files inside it. */
export interface StackPaths {
  data: string;
  logs: string;
  run: string;
}

export interface RunningService {
  name: string;
  url: string;
  /** Absent when the service was already running (the machine's Redis). */
  process?: ManagedProcess;
  note?: string;
}
