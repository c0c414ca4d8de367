/**
 * `npm test`: type-checks, starts a fresh Redis/Weaviate/Temporal stack on ports of its own (so it
 * can run beside `npm start`), runs every ava test against it, stops it, and exits with the result.
 * Arguments are passed to ava (`npm test -- api/app.test.ts`).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChartTools } from '../helm/chart-tools.js';
import { ensureDebianCommand } from './debian-packages.js';
import { readFileTimes, slowestFilesReport } from './file-times.js';
import { log } from './output.js';
import { stopLeftovers } from './processes.js';
import { stackPlan, startStack } from './stack.js';

const plan = stackPlan('test', join(process.env.DATA_DIR || '.data', 'test'));
const started = Date.now();

log('type-checking');
for (const project of ['.', 'widget-cdn/src', 'api/agent-page']) {
  if ((await run('npx', ['tsc', '--noEmit', '-p', project], process.env)) !== 0) process.exit(1);
}
log('making sure Chromium is installed for the browser tests');
ensureDebianCommand('chromium', 'chromium');
log('making sure helm and the manifest checker are built for the chart tests');
await ensureChartTools();

// Every run starts from empty service data; logs of the last run stay for reading.
stopLeftovers(plan.paths.run);
for (const dir of ['weaviate', 'temporal', 'redis', 'logs', 'workflow-bundles'])
  rmSync(join(plan.paths.data, dir), { recursive: true, force: true });

// Each test file's process records its wall time here as it exits (tools/testing/file-times.ts).
const fileTimes = join(plan.paths.logs, 'test-file-times.tsv');

const stack = await startStack(plan);
let code = 1;
try {
  log(`running the tests (service logs in ${plan.paths.logs})`);
  code = await run(process.execPath, [join('node_modules', 'ava', 'entrypoints', 'cli.mjs'), ...process.argv.slice(2)], {
    ...process.env,
    ...stack.env,
    NODE_ENV: 'test',
    // Tests run many API and worker processes at once, beside `npm start`: none serves metrics on the
    // fixed ports; the tests of the metrics endpoints choose free ones.
    METRICS_ENABLED: 'false',
    TEST_FILE_TIMES: fileTimes,
    // The workflows bundled once for the run, not once per test file (tools/testing/workflow-bundle.ts).
    WORKFLOW_BUNDLE_CACHE: join(plan.paths.data, 'workflow-bundles'),
  });
} finally {
  await stack.stop();
}
for (const line of slowestFilesReport(readFileTimes(fileTimes))) log(line);
log(`${code === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(code);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: 'inherit' });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
}
