import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { log } from './output.js';

interface GoTool {
  module: string;
  version: string;
  binary: string;
}

export type GoToolName = 'temporal-cli' | 'weaviate' | 'temporal-server' | 'temporal-sql-tool' | 'helm';

const versions = JSON.parse(readFileSync(new URL('../versions.json', import.meta.url), 'utf8')) as {
  goTools: Record<GoToolName, GoTool>;
};

export const goTools = versions.goTools;

/** Outside the clone, so that every clone on this machine (and CI) reuses one build. */
export function toolCacheRoot(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kb-assistant');
}

export function toolPath(name: GoToolName): string {
  const tool = goTools[name];
  return join(toolCacheRoot(), `${name}-${tool.version}`, 'bin', tool.binary);
}

/**
 * The path of a pinned Go tool, built with `go install module@version` on first use. The build goes
 * to a scratch folder and is renamed into place, so an interrupted build never leaves a broken tool.
 */
export async function ensureGoTool(name: GoToolName): Promise<string> {
  const target = toolPath(name);
  if (existsSync(target)) return target;
  const tool = goTools[name];
  await buildOnce({ name, what: `${tool.module}@${tool.version}`, target, binary: tool.binary }, (scratch) => ({
    args: ['install', `${tool.module}@${tool.version}`],
    env: { GOBIN: scratch },
  }));
  return target;
}

/**
 * The path of one of our own Go programs (a folder of this repository with its own go.mod), built with
 * `go build` on first use and again whenever its sources change: the cache folder is named by a digest
 * of its go.mod, go.sum and .go files.
 */
export async function ensureGoProgram(dir: string, binary: string): Promise<string> {
  const digest = createHash('sha256');
  for (const file of readdirSync(dir)
    .filter((f) => /^go\.(mod|sum)$|\.go$/.test(f))
    .sort()) {
    digest
      .update(`${file}\0`)
      .update(readFileSync(join(dir, file)))
      .update('\0');
  }
  const target = join(toolCacheRoot(), `${binary}-${digest.digest('hex').slice(0, 16)}`, 'bin', binary);
  if (existsSync(target)) return target;
  await buildOnce({ name: binary, what: `${binary} (${dir})`, target, binary }, (scratch) => ({
    args: ['build', '-o', join(scratch, binary), '.'],
    cwd: dir,
  }));
  return target;
}

/** How long a process waits for another one's build of the same tool: the slowest build seen took 13 minutes. */
const buildWaitMs = 45 * 60_000;

/**
 * Builds `target` unless it exists, holding a lock beside it: of several processes that need the tool
 * at once (test runs in several worktrees, a test run beside `npm start`), one builds and the others
 * wait for it, instead of each building the same tool side by side on the same cores. A lock whose
 * holder died goes stale within a minute and is taken over.
 */
async function buildOnce(
  tool: { name: string; what: string; target: string; binary: string },
  command: (scratch: string) => { args: string[]; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<void> {
  const folder = dirname(tool.target);
  mkdirSync(folder, { recursive: true });
  const lock = { lockfilePath: `${tool.target}.lock`, stale: 60_000, update: 15_000 };
  if (await lockfile.check(folder, lock)) log(`waiting for another process building ${tool.name}`);
  const release = await lockfile.lock(folder, {
    ...lock,
    retries: { retries: buildWaitMs / 3_000, minTimeout: 3_000, maxTimeout: 3_000, factor: 1 },
  });
  try {
    if (!existsSync(tool.target)) await build(tool, command);
  } finally {
    await release();
  }
}

/** Builds into a scratch folder next to `target`, printing progress, and renames the binary into place. */
async function build(
  tool: { name: string; what: string; target: string; binary: string },
  command: (scratch: string) => { args: string[]; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<void> {
  const scratch = `${tool.target}.building-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  log(`building ${tool.what} (first time on this machine: this takes minutes)`);

  const started = Date.now();
  const progress = { downloads: 0 };
  const ticker = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    log(`  … still building ${tool.name}: ${seconds} s, ${progress.downloads} modules downloaded`);
  }, 20_000);
  try {
    const { args, cwd, env } = command(scratch);
    await run(
      'go',
      args,
      { ...process.env, CGO_ENABLED: '1', GOFLAGS: '-buildvcs=false', ...env },
      cwd,
      () => progress.downloads++,
    );
  } finally {
    clearInterval(ticker);
  }
  renameSync(join(scratch, tool.binary), tool.target);
  rmSync(scratch, { recursive: true, force: true });
  log(`built ${tool.name} in ${Math.round((Date.now() - started) / 1000)} s: ${tool.target}`);
}

/** Go's module cache, where the sources of an installed module (and the Temporal SQL schemas) live. */
export async function goModuleDir(module: string, version: string): Promise<string> {
  const cache = (await capture('go', ['env', 'GOMODCACHE'])).trim();
  return join(cache, `${module}@${version}`);
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string | undefined,
  onDownload: () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      for (const line of chunk.toString().split('\n')) if (line.startsWith('go: downloading')) onDownload();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${stderr.slice(-4000)}`));
    });
  });
}

function capture(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited ${code}`))));
  });
}
