import { join } from 'node:path';
import { variables } from '#platform/config-variables.js';
import { ManagedProcess } from './processes.js';
import type { StackPaths } from './services/service.js';

/** One of our TypeScript entries as a child process, its output prefixed with its name. */
export function startTsProcess(name: string, args: string[], env: NodeJS.ProcessEnv, paths: StackPaths): ManagedProcess {
  return new ManagedProcess(
    { name, command: process.execPath, args: ['--import', 'tsx', ...args], env, output: { prefix: `[${name}]` } },
    paths.run,
  );
}

export interface AppProcesses {
  api: ManagedProcess;
  workers: ManagedProcess[];
  cdn?: ManagedProcess;
  all: ManagedProcess[];
}

/**
 * The service's own processes: the API (a cluster of `apiProcesses` sharing its port when more than
 * one), `workerProcesses` workers, each able to scale on its own, and the widget file server.
 */
export function startAppProcesses(options: {
  env: NodeJS.ProcessEnv;
  paths: StackPaths;
  apiProcesses: number;
  workerProcesses: number;
  cdn?: boolean;
}): AppProcesses {
  const { env, paths } = options;
  const api =
    options.apiProcesses > 1
      ? startTsProcess(
          'api',
          [join('deploy', 'local', 'api-cluster.ts'), String(options.apiProcesses), join('api', 'server.ts')],
          env,
          paths,
        )
      : startTsProcess('api', [join('api', 'server.ts')], env, paths);
  const workers = Array.from({ length: options.workerProcesses }, (_, i) =>
    startTsProcess(
      options.workerProcesses > 1 ? `worker-${i + 1}` : 'worker',
      [join('worker', 'main.ts')],
      { ...env, ...workerMetricsPorts(env, i) },
      paths,
    ),
  );
  const cdn = options.cdn === false ? undefined : startTsProcess('cdn', [join('widget-cdn', 'server.ts')], env, paths);
  return { api, workers, ...(cdn ? { cdn } : {}), all: [api, ...workers, ...(cdn ? [cdn] : [])] };
}

/** A port variable's value in `env`, or its default. */
const portOf = (env: NodeJS.ProcessEnv, name: 'METRICS_PORT' | 'WORKER_METRICS_PORT' | 'TEMPORAL_METRICS_PORT') =>
  Number(env[name] || variables[name].default);

/** Workers on one machine each need their metrics ports: worker `i` takes the pair after worker `i - 1`'s. */
function workerMetricsPorts(env: NodeJS.ProcessEnv, i: number): NodeJS.ProcessEnv {
  return {
    WORKER_METRICS_PORT: String(portOf(env, 'WORKER_METRICS_PORT') + 2 * i),
    TEMPORAL_METRICS_PORT: String(portOf(env, 'TEMPORAL_METRICS_PORT') + 2 * i),
  };
}

/** Where the processes serve their metrics (none when METRICS_ENABLED is false), for the start-up message. */
export function metricsAddresses(env: NodeJS.ProcessEnv, workerProcesses: number): string[] {
  if (env.METRICS_ENABLED === 'false') return [];
  const host = env.METRICS_HOST || String(variables.METRICS_HOST.default);
  const url = (port: number) => `http://${host}:${port}/metrics`;
  return [
    `API ${url(portOf(env, 'METRICS_PORT'))}`,
    ...Array.from({ length: workerProcesses }, (_, i) => {
      const ports = workerMetricsPorts(env, i);
      const name = workerProcesses > 1 ? `worker ${i + 1}` : 'worker';
      return `${name} ${url(Number(ports.WORKER_METRICS_PORT))}, Temporal SDK ${url(Number(ports.TEMPORAL_METRICS_PORT))}`;
    }),
  ];
}
