import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

/** Runs tasks on threads of its own, one at a time on each. */
export interface Thread<Task, Result> {
  run(task: Task): Promise<Result>;
  close(): Promise<void>;
}

export interface ThreadOptions {
  /** Threads running the module, each with its own copy of it; one unless said otherwise. */
  threads?: number;
  /**
   * Tasks handed to a thread at once (one unless said otherwise): at two, a thread that finishes a
   * task finds the next one already waiting, without a turn of this thread's event loop in between.
   * A thread still runs them one after the other when each blocks it, as a model run does.
   */
  tasksPerThread?: number;
}

/**
 * A thread running `module`'s default export (a function of one task) for work that would block the
 * event loop, such as a model run. `module` is a URL beside the caller's file, named without its
 * extension: the thread loads the form the caller runs in (TypeScript under tsx, or compiled
 * JavaScript). Tasks queue for the thread in order. The thread does not keep the process alive.
 */
export function startThread<Task, Result>(
  module: URL,
  workerData: object,
  { threads = 1, tasksPerThread = 1 }: ThreadOptions = {},
): Thread<Task, Result> {
  const typescript = extname(fileURLToPath(import.meta.url)) === '.ts';
  const path = `${fileURLToPath(module)}${typescript ? '.ts' : '.js'}`;
  const pool = new Piscina<Task, Result>({
    filename: typescript ? fileURLToPath(new URL('./typescript-entry.mjs', import.meta.url)) : path,
    workerData: typescript ? { ...workerData, typescriptModule: path } : workerData,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: tasksPerThread,
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  for (const worker of pool.threads) worker.unref();
  return { run: (task) => pool.run(task), close: () => pool.close() };
}
