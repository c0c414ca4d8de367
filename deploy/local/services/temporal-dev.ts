import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { ensureSearchAttributes } from '#worker/search-attributes.js';
import { ensureGoTool } from '../go-tools.js';
import { ManagedProcess, waitUntil } from '../processes.js';
import type { RunningService, StackPaths } from './service.js';
import { temporalDynamicConfig } from './temporal-tuning.js';

export interface TemporalDevPorts {
  frontend: number;
  http: number;
  /** The Web UI; absent runs the server headless. */
  ui?: number;
}

/**
 * The Temporal CLI's dev server on loopback, persisting to a SQLite file in the data folder (WAL
 * and synchronous=normal: the defaults are reported ten times slower), with the service's search
 * attributes registered.
 */
export async function startTemporalDev(ports: TemporalDevPorts, namespace: string, paths: StackPaths): Promise<RunningService> {
  const binary = await ensureGoTool('temporal-cli');
  const dir = join(paths.data, 'temporal');
  mkdirSync(dir, { recursive: true });
  const logFile = join(paths.logs, 'temporal.log');
  const process_ = new ManagedProcess(
    {
      name: 'temporal',
      command: binary,
      args: [
        'server',
        'start-dev',
        '--ip',
        '127.0.0.1',
        '--port',
        String(ports.frontend),
        '--http-port',
        String(ports.http),
        ...(ports.ui ? ['--ui-ip', '127.0.0.1', '--ui-port', String(ports.ui)] : ['--headless']),
        '--db-filename',
        join(dir, 'temporal.db'),
        '--sqlite-pragma',
        'journal_mode=wal',
        '--sqlite-pragma',
        'synchronous=normal',
        '--namespace',
        namespace,
        ...Object.entries(temporalDynamicConfig).flatMap(([key, value]) => [
          '--dynamic-config-value',
          `${key}=${JSON.stringify(value)}`,
        ]),
        '--log-level',
        'warn',
        '--log-format',
        'json',
      ],
      output: { file: logFile },
    },
    paths.run,
  );

  const address = `127.0.0.1:${ports.frontend}`;
  await waitUntil('Temporal', () => registerSearchAttributes(address, namespace), {
    timeoutMs: 60_000,
    process: process_,
    logFile,
  });
  return {
    name: 'temporal',
    url: address,
    process: process_,
    note: ports.ui ? `UI on http://127.0.0.1:${ports.ui}` : 'headless',
  };
}

/** True once the frontend answers and the namespace has the service's search attributes. */
export async function registerSearchAttributes(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1_000 });
  try {
    await ensureSearchAttributes(connection, namespace);
    return true;
  } finally {
    await connection.close();
  }
}
