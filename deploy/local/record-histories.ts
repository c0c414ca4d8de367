/**
 * `npm run histories:record` (after `npm test`): copies, from the test stack's Temporal (its SQLite
 * file, which the last run leaves behind), closed histories of every workflow type into
 * `workflows/histories/`, where `workflows/replay.test.ts` replays them with the current code. A
 * change that would break workflows running during a deploy then fails that test; guard the old path
 * with `patched()` rather than re-recording, unless no such workflow can be running.
 *
 * For each type it keeps the longest of up to 40 histories under 1,000 events, with this machine's paths
 * made relative and none that holds a credential (refused by its prefix, as scanners would find it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { secretKinds } from '#tenancy/secrets.js';
import * as workflows from '#workflows/index.js';
import { log } from './output.js';
import { startTemporalDev } from './services/temporal-dev.js';
import { stackPlan } from './stack.js';

const plan = stackPlan('test', join(process.env.DATA_DIR || '.data', 'test'));
const temporal = await startTemporalDev(plan.temporal, plan.namespace, plan.paths);
const connection = await Connection.connect({ address: temporal.url });
const client = new Client({ connection, namespace: plan.namespace });
const folder = join('workflows', 'histories');
mkdirSync(folder, { recursive: true });
// A credential is its kind's prefix and 256 random bits (43 base64url characters).
const credential = new RegExp(`(?:${Object.values(secretKinds).join('|')})[A-Za-z0-9_-]{43}`);
/** The history's text with every payload's data decoded, as that is where a credential would hide. */
const readable = (json: string) =>
  json +
  [...json.matchAll(/"data": "([A-Za-z0-9+/=]+)"/g)].map(([, data]) => Buffer.from(data!, 'base64').toString('utf8')).join('\n');

try {
  for (const type of Object.keys(workflows)) {
    let best: { workflowId: string; json: string; events: number } | undefined;
    let candidates = 0;
    // Running workflows count too (a conversation stays open after its test): their history so far
    // must replay as well.
    for await (const execution of client.workflow.list({ query: `WorkflowType = '${type}'` })) {
      if (++candidates > 40) break;
      const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
      const events = history.events?.length ?? 0;
      if (events > 1_000 || events <= (best?.events ?? 0)) continue;
      const json = JSON.stringify(proto.temporal.api.history.v1.History.fromObject(history).toJSON(), null, 2).replaceAll(
        process.cwd(),
        '.',
      );
      if (credential.test(readable(json))) continue;
      best = { workflowId: execution.workflowId, json, events };
    }
    if (!best) {
      log(`no ${type} history without credentials: run npm test first`);
      continue;
    }
    writeFileSync(join(folder, `${type}.json`), best.json);
    log(`${type}: ${best.events} events (${best.workflowId})`);
  }
} finally {
  await connection.close();
  await temporal.process?.stop();
}
