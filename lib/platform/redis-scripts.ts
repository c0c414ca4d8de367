/** Running Lua scripts by SHA-1, loading each on the first use (the article store's, the ratings store's). */
import { createHash } from 'node:crypto';
import type { RedisClient } from '#platform/redis.js';

const scriptShas = new Map<string, string>();

/** Runs a script by its SHA-1, loading it with EVAL when the server does not know it yet. */
export async function runScript(redis: RedisClient, source: string, keys: string[], args: string[]): Promise<unknown> {
  let sha = scriptShas.get(source);
  if (!sha) scriptShas.set(source, (sha = createHash('sha1').update(source).digest('hex')));
  try {
    return await redis.evalSha(sha, { keys, arguments: args });
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return redis.eval(source, { keys, arguments: args });
  }
}
