/**
 * `npm run fuzz [-- --requests 10000 --seed 7 --concurrency 8]`: hostile requests across every route
 * the API documents, against the real stack (API and worker as child processes). It prints the answers
 * by status, every failure (a 5xx, an answer unlike the documentation, no answer) with the seed and
 * index that reproduce it, whether any process restarted, and the API's memory before, right after
 * and after settling. It exits non-zero when anything failed.
 */
import { parseArgs } from 'node:util';
import { residentBytes } from '#testing/process-usage.js';
import { log } from '#deploy/local/output.js';
import { startMeasuredStack } from '#bench/measured-stack.js';
import { runCampaign } from './campaign.js';
import { createKnownValues } from './known-values.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    concurrency: { type: 'string', default: '8' },
  },
});
const seed = Number(args.seed);
// Connectors the run creates point at hostile addresses (`http://127.0.0.1:6379/`): the worker must
// refuse them as production would, so the benchmarks' allowance for local fakes is off here.
// Every request comes from one address, most with wrong tokens: the budgets per address are lifted
// (as the benchmarks lift the others), or the run would test little beyond the 429 in front.
const stack = await startMeasuredStack('fuzz', {
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false',
  ADMIN_PER_MINUTE: '1000000',
  REFUSED_TOKENS_PER_MINUTE: '1000000',
});
let failed = true;
try {
  const apps = await stack.startApps(1);
  const restarted: string[] = [];
  for (const process of apps.all) void process.exited.then(() => restarted.push(process.spec.name));
  const known = await createKnownValues(stack.apiUrl, stack.env.ADMIN_TOKEN!);
  const rssOfApi = () => residentMegabytes(apps.api.pid!);

  // A warm-up first, so the baseline includes what the first requests load and cache for good.
  await runCampaign({ apiUrl: stack.apiUrl, known, seed: seed + 1, count: 300 });
  const baseline = rssOfApi();
  log(`seed ${seed}: ${args.requests} requests, ${args.concurrency} at a time; API resident memory ${baseline} MB`);

  const result = await runCampaign({
    apiUrl: stack.apiUrl,
    known,
    seed,
    count: Number(args.requests),
    concurrency: Number(args.concurrency),
  });
  const afterRun = rssOfApi();
  await new Promise((resolve) => setTimeout(resolve, 30_000));
  const settled = rssOfApi();

  log(`sent ${result.sent} in ${result.seconds.toFixed(1)} s (${(result.sent / result.seconds).toFixed(0)}/s)`);
  log(`answers by status: ${JSON.stringify(result.byStatus)}`);
  log(`API resident memory: ${baseline} MB before, ${afterRun} MB right after, ${settled} MB after 30 s idle`);
  log(`refusals with a status their operation does not document: ${JSON.stringify(result.undocumented)}`);
  log(`requests cut off while sending a body the API refused before reading it: ${result.cutOffWhileSending}`);
  log(`processes restarted: ${restarted.length ? restarted.join(', ') : 'none'}`);
  for (const failure of result.failures.slice(0, 50)) {
    log(`FAILED seed ${seed} index ${failure.index}: ${JSON.stringify(failure.request)}: ${failure.problem}`);
  }
  // Resident memory rarely falls all the way back (V8 keeps pages it may reuse); a quarter above the
  // warmed-up baseline is the bound this run holds the API to.
  const memoryBack = settled <= baseline * 1.25;
  log(
    `${result.failures.length} failure(s), ${result.byStatus['500'] ?? 0} × 500; memory ${memoryBack ? 'back within 25 % of' : 'NOT back to'} its baseline`,
  );
  failed = result.failures.length > 0 || restarted.length > 0 || !memoryBack;
} finally {
  await stack.stop();
}
process.exit(failed ? 1 : 0);

function residentMegabytes(pid: number): number {
  return Math.round(residentBytes(pid) / 2 ** 20);
}
