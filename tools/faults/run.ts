/**
 * `npm run faults [-- --runs 20 --items 1000 --chats 50 --customers 50 --seed 1]`: the fault
 * campaign. Each run ingests `items` in bulk (and changes a third of them while it runs), talks with
 * `chats` widget visitors and `customers` messaging customers, while at random moments the worker is
 * killed (SIGKILL), Weaviate is killed, the campaign's own Redis is killed, or Temporal is killed,
 * each started again after a random while. Then it checks through the public API: every item
 * searchable with its latest text and metadata, no job stuck, every question answered exactly once,
 * every reply received exactly once by the fake platform. It prints each run's findings with the seed
 * that reproduces it, each fault's recovery (fault to first progress after it) and the slowest item,
 * and exits non-zero on any finding. `STACK_PROFILE=production` runs Temporal on PostgreSQL.
 * `--embedder local` embeds with the model (three times slower here); the default hashed embedder
 * keeps a run to minutes, and what is checked does not depend on the embedder.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { log } from '#deploy/local/output.js';
import { startTsProcess } from '#deploy/local/app-processes.js';
import { httpOk, waitUntil } from '#deploy/local/processes.js';
import { startMeasuredStack } from '#bench/measured-stack.js';
import { startFakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { runCampaign, type RunReport } from './campaign.js';
import type { Problem } from './progress.js';
import { supervise } from './supervised-process.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    items: { type: 'string', default: '1000' },
    chats: { type: 'string', default: '50' },
    customers: { type: 'string', default: '50' },
    questions: { type: 'string', default: '2' },
    seed: { type: 'string', default: String(Date.now() % 100_000) },
    embedder: { type: 'string', default: 'hashed' },
    'settle-minutes': { type: 'string', default: '15' },
  },
});
const firstSeed = Number(args.seed);
const sizes = {
  items: Number(args.items),
  chats: Number(args.chats),
  customers: Number(args.customers),
  questionsEach: Number(args.questions),
};

const platform = await startFakeMessagingPlatform();
/** A Redis of the campaign's own (port and data), which it may kill. */
const redisPort = 26379 + Number(process.env.STACK_PORT_OFFSET || 0);
const stack = await startMeasuredStack(
  'faults',
  { GRAPH_API_BASE_URL: platform.url, EMBEDDINGS_PROVIDER: args.embedder!, LOG_LEVEL: 'error' },
  { redisPort },
);
const processProblems: Problem[] = [];
const crashed = (what: string) => {
  log(`  ${what}`);
  processProblems.push({ workload: 'processes', kind: 'unexpected', what });
};
const api = supervise('api', () => startTsProcess('api', [join('api', 'server.ts')], stack.env, stack.plan.paths), crashed);
const worker = supervise(
  'worker',
  () => startTsProcess('worker', [join('worker', 'main.ts')], stack.env, stack.plan.paths),
  crashed,
);
stack.track(api, worker);

const reports: RunReport[] = [];
try {
  await waitUntil('the API', () => httpOk(`${stack.apiUrl}/ready`), { timeoutMs: 90_000 });
  log(`fault campaign: ${args.runs} runs from seed ${firstSeed}, ${stack.profile} profile, ${args.embedder} embedder`);
  for (let run = 0; run < Number(args.runs); run++) {
    const seed = firstSeed + run;
    log(`run ${run + 1} (seed ${seed})`);
    const report = await runCampaign(
      {
        stack,
        platform,
        targets: {
          kill: (kind) => (kind === 'worker' ? worker.kill() : stack.services.kill(kind, 'SIGKILL')),
          revive: async (kind) => (kind === 'worker' ? worker.revive() : stack.services.revive(kind)),
        },
        timing: { gapMs: [3_000, 15_000], downMs: [1_000, 8_000] },
        settleMs: Number(args['settle-minutes']) * 60_000,
        takeProcessProblems: () => processProblems.splice(0),
        log,
      },
      seed,
      sizes,
    );
    reports.push(report);
    printRun(report);
  }
} finally {
  printTotals(reports);
  await stack.stop();
  await platform.close();
}
process.exitCode = reports.every((report) => report.problems.length === 0) && reports.length === Number(args.runs) ? 0 : 1;

function printRun(report: RunReport): void {
  const byKind = (kind: string) => report.problems.filter((problem) => problem.kind === kind).length;
  log(
    `  seed ${report.seed}: ${report.seconds.toFixed(0)} s, ${report.faults.length} faults; lost ${byKind('lost')}, duplicated ${byKind('duplicated')}, stuck ${byKind('stuck')}, stale ${byKind('stale')}, other ${report.problems.length - byKind('lost') - byKind('duplicated') - byKind('stuck') - byKind('stale')}`,
  );
  log(`  ${JSON.stringify(report.figures)}`);
  for (const fault of report.faults) {
    const recovery = fault.recoverySeconds === undefined ? 'no progress after it' : `${fault.recoverySeconds.toFixed(1)} s`;
    log(`    ${fault.kind}: down ${((fault.upAt - fault.killedAt) / 1000).toFixed(1)} s, recovery ${recovery}`);
  }
  for (const problem of report.problems.slice(0, 30)) log(`    ${problem.workload} ${problem.kind}: ${problem.what}`);
  if (report.problems.length > 30) log(`    … and ${report.problems.length - 30} more`);
  if (report.problems.length > 0) log(`  reproduce with: npm run faults -- --runs 1 --seed ${report.seed}`);
}

function printTotals(all: RunReport[]): void {
  if (all.length === 0) return;
  const faults = all.flatMap((report) => report.faults);
  log(`${all.length} runs, ${faults.length} faults, ${all.reduce((sum, report) => sum + report.problems.length, 0)} findings`);
  for (const kind of ['worker', 'weaviate', 'redis', 'temporal'] as const) {
    const recoveries = faults
      .filter((fault) => fault.kind === kind && fault.recoverySeconds !== undefined)
      .map((fault) => fault.recoverySeconds!)
      .sort((a, b) => a - b);
    if (recoveries.length === 0) continue;
    const median = recoveries[Math.floor(recoveries.length / 2)]!;
    log(
      `  ${kind}: ${recoveries.length} faults, recovery median ${median.toFixed(1)} s, worst ${recoveries.at(-1)!.toFixed(1)} s`,
    );
  }
  const slowest = Math.max(...all.map((report) => Number(report.figures['slowest item (accepted to searchable), s'] ?? 0)));
  log(`  slowest item over all runs: ${slowest} s from accepted to searchable`);
  const failing = all.filter((report) => report.problems.length > 0).map((report) => report.seed);
  if (failing.length > 0) log(`  seeds with findings: ${failing.join(', ')}`);
}
