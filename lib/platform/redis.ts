import { createClient } from 'redis';
import type { Logger } from './logger.js';

export type RedisClient = ReturnType<typeof createClient>;

/**
 * The one Redis client of a process. Commands fail at once while Redis is unreachable (no offline
 * queue), so a request is answered 503 instead of hanging; the client reconnects by itself with a
 * capped backoff. `connect()` is not awaited by callers that must start while Redis is down.
 */
export function createRedisClient(url: string, logger: Logger): RedisClient {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (!down) logger.warn({ err: { message: error.message } }, 'redis connection lost; reconnecting');
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.info('redis connection restored');
    down = false;
  });
  return client;
}

/** Starts connecting in the background; the process keeps running while Redis is unreachable. */
export function connectInBackground(client: RedisClient, logger: Logger): void {
  client.connect().catch((error: Error) => logger.error({ err: { message: error.message } }, 'redis connect failed'));
}

/**
 * Closes a client whatever state it is in: a ready one politely (QUIT, after its pending commands),
 * one that is reconnecting at once (a QUIT would wait for a server that may not come back, and its
 * reconnect timer would keep the process alive).
 */
export async function closeRedisClient(client: RedisClient): Promise<void> {
  if (!client.isOpen) return;
  if (client.isReady) await client.quit();
  else await client.disconnect();
}
