import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningEntry {
  child: ChildProcess;
  /** Everything written so far to stdout and stderr. */
  output(): string;
  /** Resolves with the first output line matching `pattern`, or rejects when the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Runs one of the service's process entries (`api/server.ts`, `worker/main.ts`) as a real process. */
export function runEntry(entry: string, env: NodeJS.ProcessEnv): RunningEntry {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      output += chunk;
      for (const listener of listeners) listener();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = output.split('\n').find((l) => pattern.test(l));
          if (line !== undefined) {
            cleanup();
            resolve(line);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (listeners.has(check)) {
            cleanup();
            reject(new Error(`exited (${code}) before printing ${pattern}; output:\n${output}`));
          }
        });
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
