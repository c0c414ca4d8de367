/**
 * Runs the API as several processes sharing one port (node:cluster), as the production profile
 * does; a process that dies is replaced. Usage: tsx api-cluster.ts <count> <entry.ts>
 */
import cluster from 'node:cluster';
import { variables } from '#platform/config-variables.js';
import { createLogger } from '#platform/logger.js';
import { serveClusterMetrics } from '#platform/metrics/endpoint.js';

const count = Number(process.argv[2]);
const entry = process.argv[3];
if (!Number.isInteger(count) || count < 1 || !entry) {
  process.stderr.write('usage: api-cluster.ts <count> <entry>\n');
  process.exit(2);
}

cluster.setupPrimary({ exec: entry, execArgv: ['--import', 'tsx'] });
// The processes share the API's port, and so its metrics port: this process serves all of theirs together.
const metrics =
  process.env.METRICS_ENABLED === 'false'
    ? undefined
    : await serveClusterMetrics(
        {
          host: process.env.METRICS_HOST || String(variables.METRICS_HOST.default),
          port: Number(process.env.METRICS_PORT || variables.METRICS_PORT.default),
        },
        createLogger({ level: process.env.LOG_LEVEL || 'info', name: 'api-cluster' }),
      );
let stopping = false;
for (let i = 0; i < count; i++) cluster.fork();

cluster.on('exit', (worker, code, signal) => {
  if (stopping) {
    if (Object.keys(cluster.workers ?? {}).length === 0) void (metrics?.close() ?? Promise.resolve()).then(() => process.exit(0));
    return;
  }
  process.stderr.write(`api process ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
  setTimeout(() => cluster.fork(), 1_000);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  });
}
