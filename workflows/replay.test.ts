import { readdirSync, readFileSync } from 'node:fs';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import test from 'ava';
import { testWorkflowBundle } from '#testing/workflow-bundle.js';
import { installQuietRuntime } from '#testing/worker.js';
import * as workflows from './index.js';

// Histories of every workflow type, recorded by `npm run histories:record` from a test run of the code
// of their time: running workflows must replay them unchanged, command for command, after a deploy.
// `<type>.<variant>.json` holds another path of the same type (`conversationWorkflow.messaging.json`).
const folder = new URL('./histories/', import.meta.url);
const recorded = readdirSync(folder).filter((file) => file.endsWith('.json'));

test('a history of every workflow type is recorded', (t) => {
  const types = new Set(recorded.map((file) => file.replace(/(\.[A-Za-z-]+)?\.json$/, '')));
  t.deepEqual([...types].sort(), Object.keys(workflows).sort());
});

test('recorded histories replay unchanged with the current workflow code', async (t) => {
  installQuietRuntime();
  const workflowBundle = await testWorkflowBundle();
  for (const file of recorded) {
    const history = proto.temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(new URL(file, folder), 'utf8')));
    await t.notThrowsAsync(Worker.runReplayHistory({ workflowBundle }, history, file), file);
  }
});

test('recorded histories replay unchanged with the tracing interceptors bundled in', async (t) => {
  installQuietRuntime();
  const workflowBundle = await testWorkflowBundle({ tracing: true });
  const sinks = {
    exporter: makeWorkflowExporter(new SimpleSpanProcessor(new InMemorySpanExporter()), Resource.default() as Resource),
  };
  for (const file of recorded) {
    const history = proto.temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(new URL(file, folder), 'utf8')));
    await t.notThrowsAsync(Worker.runReplayHistory({ workflowBundle, sinks }, history, file), file);
  }
});
