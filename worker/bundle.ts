import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

// The same extension as this file: .ts under tsx, .js once compiled.
const workflowsPath = fileURLToPath(new URL(`../workflows/index${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * The workflows (`workflows/index`) bundled for Temporal's sandbox, once per process: every Worker
 * of the process shares the bundle. Bundling fails on a workflow that imports a Node built-in.
 */
export function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath, logger: silent });
}
