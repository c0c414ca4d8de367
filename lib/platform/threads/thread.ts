import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

/** Runs tasks on threads of its own, one at a time on each. */
export interface Thread<Task, Result> {
  /**
   * `signal` abandons the task (the thread running it is ended, and another started); `transferList`
   * moves buffers of the task to the thread instead of copying them.
   */
  run(task: Task, options?: { signal?: AbortSignal; transferList?: Transferable[] }): Promise<Result>;
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
  /** A thread that outgrows these (its heap, `maxOldGenerationSizeMb`) ends, failing its task, not the process. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

/**
 * A thread running `module`'s default export (a function of one task) for work that would block the
 * event loop, such as a model run. `module` is a URL beside the caller's file, named without its
 * extension: the compiled service runs the compiled JavaScript; development and tests, which run
 * the TypeScript sources, run the module bundled to JavaScript (`javascriptOf`). Tasks queue for the
 * thread in order. The thread does not keep the process alive.
 */
export function startThread<Task, Result>(
  module: URL,
  workerData: object,
  { threads = 1, tasksPerThread = 1, resourceLimits }: ThreadOptions = {},
): Thread<Task, Result> {
  const typescript = extname(fileURLToPath(import.meta.url)) === '.ts';
  const path = `${fileURLToPath(module)}${typescript ? '.ts' : '.js'}`;
  const pool = new Piscina<Task, Result>({
    filename: typescript ? javascriptOf(path) : path,
    workerData,
    execArgv: withoutTsx(process.execArgv),
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: tasksPerThread,
    idleTimeout: Number.POSITIVE_INFINITY,
    ...(resourceLimits ? { resourceLimits } : {}),
  });
  // Again after each task: a thread ended by an abandoned task (or its limits) is replaced by a new one.
  const unref = () => {
    for (const worker of pool.threads) worker.unref();
  };
  unref();
  return {
    run: (task, options = {}) =>
      pool
        .run(task, {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.transferList ? { transferList: options.transferList as never } : {}),
        })
        .finally(unref),
    close: () => pool.close(),
  };
}

const bundled = new Map<string, string>();

/**
 * A thread's TypeScript module as one JavaScript file, its packages left to import: under Node 20 a
 * thread does not inherit tsx's module hooks, and registering them again costs each thread a hooks
 * thread of its own and most of a second of CPU (a test process starts dozens of model threads).
 * esbuild bundles the module in milliseconds, once per process; the file, named by its content, sits
 * in `node_modules/.cache/` so that its packages resolve.
 */
function javascriptOf(path: string): string {
  let file = bundled.get(path);
  if (file) return file;
  // Loaded here, not at the top: the compiled service never bundles, and need not load esbuild to start.
  const require = createRequire(import.meta.url);
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  const { outputFiles } = buildSync({
    entryPoints: [path],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    write: false,
    logLevel: 'error',
  });
  const code = outputFiles[0]!.contents;
  const aPackage = require.resolve('piscina');
  const nodeModules = aPackage.slice(0, aPackage.lastIndexOf(`${sep}node_modules${sep}`) + 'node_modules'.length + 1);
  const dir = join(nodeModules, '.cache', 'kb-assistant-threads');
  file = join(dir, `${basename(path, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed: a process starting the same thread reads a whole file or writes its own.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  bundled.set(path, file);
  return file;
}

/** The process's Node options without tsx's (the thread runs JavaScript only): `--import tsx`, its loader and preflight. */
function withoutTsx(execArgv: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i]!;
    const [flag, inlineValue] = option.split('=', 2);
    const takesValue = flag === '--import' || flag === '--require' || flag === '-r' || flag === '--loader';
    const value = takesValue && inlineValue === undefined ? execArgv[i + 1] : inlineValue;
    if (takesValue && value?.includes('tsx')) {
      if (inlineValue === undefined) i++;
      continue;
    }
    kept.push(option);
  }
  return kept;
}
