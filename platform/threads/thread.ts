import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

/** Runs tasks one at a time on a thread of its own. */
export interface Thread<Task, Result> {
  run(task: Task): Promise<Result>;
  close(): Promise<void>;
}

/**
 * A thread running `module`'s default export (a function of one task) for work that would block the
 * event loop, such as a model run. `module` is a URL beside the caller's file, named without its
 * extension: the thread loads the form the caller runs in (TypeScript under tsx, or compiled
 * JavaScript). Tasks queue for the thread in order. The thread does not keep the process alive.
 */
export function startThread<Task, Result>(module: URL, workerData: object): Thread<Task, Result> {
  const typescript = extname(fileURLToPath(import.meta.url)) === '.ts';
  const path = `${fileURLToPath(module)}${typescript ? '.ts' : '.js'}`;
  const pool = new Piscina<Task, Result>({
    filename: typescript ? fileURLToPath(new URL('./typescript-entry.mjs', import.meta.url)) : path,
    workerData: typescript ? { ...workerData, typescriptModule: path } : workerData,
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  for (const worker of pool.threads) worker.unref();
  return { run: (task) => pool.run(task), close: () => pool.close() };
}
