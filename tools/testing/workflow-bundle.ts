import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { madeOnce } from '#platform/made-once.js';
import { bundleWorkflows } from '#worker/bundle.js';
import { repoRoot } from './processes.js';

/*
 * The workflows bundled for the tests: once per process, and once per run of `npm test` when it names
 * a folder in `WORKFLOW_BUNDLE_CACHE` (every test file's worker would otherwise bundle the same code
 * again, seconds of CPU each). A bundle is kept under the hash of what goes into it: every workflow
 * source, the bundler's own files and the SDK's version, so a changed workflow is bundled afresh.
 */

const plain = madeOnce(() => cachedBundle({}, process.env.WORKFLOW_BUNDLE_CACHE));
const traced = madeOnce(() => cachedBundle({ tracing: true }, process.env.WORKFLOW_BUNDLE_CACHE));

export function testWorkflowBundle(options: { tracing?: boolean } = {}): Promise<WorkflowBundleWithSourceMap> {
  return options.tracing ? traced() : plain();
}

async function cachedBundle(options: { tracing?: boolean }, cacheDir: string | undefined): Promise<WorkflowBundleWithSourceMap> {
  if (!cacheDir) return bundleWorkflows(options);
  const file = join(cacheDir, `${inputsHash(options)}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as WorkflowBundleWithSourceMap;
  } catch {
    const bundle = await bundleWorkflows(options);
    mkdirSync(cacheDir, { recursive: true });
    // Written aside and renamed, so that a file running at the same time reads a whole bundle or none.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, JSON.stringify({ code: bundle.code, sourceMap: bundle.sourceMap }));
    renameSync(partial, file);
    return bundle;
  }
}

function inputsHash(options: { tracing?: boolean }): string {
  const hash = createHash('sha256');
  const sdk = createRequire(import.meta.url)('@temporalio/worker/package.json') as { version: string };
  hash.update(`tracing=${options.tracing === true} sdk=${sdk.version}\n`);
  const sources = [...sourcesUnder('workflows'), 'worker/bundle.ts', 'worker/workflow-tracing.ts'];
  for (const file of sources) hash.update(`${file}\n`).update(readFileSync(join(repoRoot, file)));
  return hash.digest('hex').slice(0, 32);
}

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(folder, file))
    .sort();
}
