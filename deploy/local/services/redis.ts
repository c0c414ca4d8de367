import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ensureDebianCommand } from '../debian-packages.js';
import { ManagedProcess, waitUntil } from '../processes.js';
import type { RunningService, StackPaths } from './service.js';

/**
 * The machine's Redis when it answers on `port`; otherwise Debian's redis-server (installed with
 * apt-get when missing), persisting to the data folder.
 */
export async function startRedis(port: number, paths: StackPaths): Promise<RunningService> {
  const url = `redis://127.0.0.1:${port}`;
  if (await redisAnswers(port)) return { name: 'redis', url, note: "the machine's Redis" };

  const binary = ensureDebianCommand('redis-server', 'redis-server');
  const dir = join(paths.data, 'redis');
  mkdirSync(dir, { recursive: true });
  const logFile = join(paths.logs, 'redis.log');
  const process = new ManagedProcess(
    {
      name: 'redis',
      command: binary,
      args: [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '60 1',
        '--daemonize',
        'no',
      ],
      output: { file: logFile },
    },
    paths.run,
  );
  await waitUntil('Redis', () => redisAnswers(port), { timeoutMs: 15_000, process, logFile });
  return { name: 'redis', url, process, note: `started here, data in ${dir}` };
}

/** True when something on the port answers PING with PONG. */
export function redisAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.setTimeout(1_000, () => socket.destroy());
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}
