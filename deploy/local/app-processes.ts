import { join } from 'node:path';
import { ManagedProcess } from './processes.js';
import type { Profile } from './stack.js';
import type { StackPaths } from './services/service.js';

const tsx = ['--import', 'tsx'];

/**
 * The service's own processes: the API, the worker(s) and the widget file server. In the
 * production profile the API runs as a cluster of `apiProcesses` and there are `workerProcesses`
 * workers, each able to scale on its own.
 */
export function startAppProcesses(options: {
  profile: Profile;
  env: NodeJS.ProcessEnv;
  paths: StackPaths;
  apiProcesses: number;
  workerProcesses: number;
}): ManagedProcess[] {
  const { env, paths } = options;
  const start = (name: string, args: string[]) =>
    new ManagedProcess(
      { name, command: process.execPath, args: [...tsx, ...args], env, output: { prefix: `[${name}]` } },
      paths.run,
    );

  const api =
    options.apiProcesses > 1
      ? start('api', [join('deploy', 'local', 'api-cluster.ts'), String(options.apiProcesses), join('api', 'server.ts')])
      : start('api', [join('api', 'server.ts')]);
  const workers = Array.from({ length: options.workerProcesses }, (_, i) =>
    start(options.workerProcesses > 1 ? `worker-${i + 1}` : 'worker', [join('worker', 'main.ts')]),
  );
  const cdn = start('cdn', [join('widget-cdn', 'server.ts')]);
  return [api, ...workers, cdn];
}
