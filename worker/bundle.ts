import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

// The same extension as this file: .ts under tsx, .js once compiled.
const extension = extname(fileURLToPath(import.meta.url));
const workflowsPath = fileURLToPath(new URL(`../workflows/index${extension}`, import.meta.url));
const tracingInterceptors = fileURLToPath(new URL(`./workflow-tracing${extension}`, import.meta.url));

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * The workflows (`workflows/index`) bundled for Temporal's sandbox, once per process: every Worker
 * of the process shares the bundle. Bundling fails on a workflow that imports a Node built-in.
 * With `tracing`, the tracing interceptors (`workflow-tracing.ts`) are bundled in: they add no
 * command, so histories recorded with or without them replay either way.
 */
export function bundleWorkflows(options: { tracing?: boolean } = {}): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath,
    logger: silent,
    ...(options.tracing ? { workflowInterceptorModules: [tracingInterceptors] } : {}),
  });
}
