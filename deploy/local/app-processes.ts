import { join } from 'node:path';
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
    startTsProcess(options.workerProcesses > 1 ? `worker-${i + 1}` : 'worker', [join('worker', 'main.ts')], env, paths),
  );
  const cdn = options.cdn === false ? undefined : startTsProcess('cdn', [join('widget-cdn', 'server.ts')], env, paths);
  return { api, workers, ...(cdn ? { cdn } : {}), all: [api, ...workers, ...(cdn ? [cdn] : [])] };
}
