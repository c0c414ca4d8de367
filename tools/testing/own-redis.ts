import { spawn, type ChildProcess } from 'node:child_process';
import { redisAnswers } from '#deploy/local/services/redis.js';

/**
 * A redis-server of a test's own (its own port and folder, nothing saved), so stopping or restarting
 * it disturbs nobody else. Resolves once it answers, or after five seconds.
 */
export async function startOwnRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100 && !(await redisAnswers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  return child;
}

export async function stopOwnRedis(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
