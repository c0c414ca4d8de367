import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import test from 'ava';

test('the workflows bundle for the Temporal sandbox (no Node built-ins, no activity code)', async (t) => {
  const workflowsPath = fileURLToPath(new URL('./index.ts', import.meta.url));
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  t.true(code.length > 0);
  t.false(/require\(["']node:/.test(code), 'the bundle must not load Node built-ins');
});
