import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { poll } from '#platform/poll.js';
import { log } from './output.js';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Third-party servers write to a log file; our own processes to this terminal, prefixed. */
  output: { file: string } | { prefix: string };
}

const running = new Set<ManagedProcess>();

// If the script dies without an orderly stop, take its children with it.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * A child process in its own process group (so Ctrl-C reaches only the script, which then stops
 * everything in order), recorded in a pid file so a later run can clean up after a crash.
 */
export class ManagedProcess {
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly pidFile: string;
  private stopping = false;

  constructor(
    readonly spec: ProcessSpec,
    runDir: string,
  ) {
    mkdirSync(runDir, { recursive: true });
    const fd = 'file' in spec.output ? openSync(spec.output.file, 'a') : undefined;
    this.child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      detached: true,
      stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'],
    });
    if (fd !== undefined) closeSync(fd);
    if ('prefix' in spec.output) {
      const { prefix } = spec.output;
      for (const stream of [this.child.stdout, this.child.stderr]) {
        if (stream) createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix} ${line}\n`));
      }
    }

    this.pidFile = join(runDir, `${spec.name}.pid`);
    writeFileSync(this.pidFile, JSON.stringify({ pid: this.child.pid, command: spec.command }));
    running.add(this);

    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        running.delete(this);
        rmSync(this.pidFile, { force: true });
        if (!this.stopping) log(`${spec.name} exited unexpectedly (${signal ?? `code ${code}`})`);
        resolve(code);
      });
      this.child.on('error', (error) => {
        log(`${spec.name} could not start: ${error.message}`);
        running.delete(this);
        resolve(null);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return running.has(this);
  }

  kill(signal: NodeJS.Signals): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid, signal);
    } catch {
      // already gone
    }
  }

  /** SIGTERM to the whole group, then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.alive) return;
    this.stopping = true;
    this.kill('SIGTERM');
    const timer = setTimeout(() => {
      log(`${this.spec.name} did not stop within ${graceMs / 1000} s; killing it`);
      this.kill('SIGKILL');
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Stops what a previous run left behind (it crashed or was killed), by the pid files in `runDir`. */
export function stopLeftovers(runDir: string): void {
  if (!existsSync(runDir)) return;
  for (const file of readdirSync(runDir).filter((f) => f.endsWith('.pid'))) {
    const path = join(runDir, file);
    try {
      const { pid, command } = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; command: string };
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(command)) {
        log(`stopping ${file.replace(/\.pid$/, '')} left over from an earlier run (pid ${pid})`);
        process.kill(-pid, 'SIGKILL');
      }
    } catch {
      // the process is gone or the file is unreadable: nothing to stop
    }
    rmSync(path, { force: true });
  }
}

/**
 * Polls `check` until it returns true. Fails with the process's log tail if the process exits
 * first, or after `timeoutMs` (then stopping the process).
 */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  options: { timeoutMs: number; process?: ManagedProcess; logFile?: string },
): Promise<void> {
  const ready = await poll(
    async () => {
      if (options.process && !options.process.alive) throw new Error(`${what} exited while starting${logTail(options.logFile)}`);
      return check().catch(() => false);
    },
    Boolean,
    { timeoutMs: options.timeoutMs, intervalMs: 250 },
  );
  if (ready) return;
  await options.process?.stop();
  throw new Error(`${what} was not ready within ${options.timeoutMs / 1000} s${logTail(options.logFile)}`);
}

function logTail(file?: string): string {
  if (!file || !existsSync(file)) return '';
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-20);
  return `; the end of ${file}:\n${lines.join('\n')}`;
}

/** True when an HTTP GET of `url` answers 2xx. */
export async function httpOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await response.body?.cancel();
  return response.ok;
}
