import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createLogger } from '#platform/logger.js';
import { closeRedisClient, createRedisClient, type RedisClient } from '#platform/redis.js';
import { eventually } from '#testing/eventually.js';
import { freePort } from '#testing/processes.js';
import { startOwnRedis, stopOwnRedis } from '#testing/own-redis.js';
import { createEventFollower, createEventPublisher, type ConversationEvent, type DeliveredEvent } from './events.js';

const logger = createLogger({ level: 'silent', name: 'events-test' });
let port: number;
let dir: string;
let server: ChildProcess;
const clients: RedisClient[] = [];

async function client(): Promise<RedisClient> {
  const redis = createRedisClient(`redis://127.0.0.1:${port}`, logger);
  clients.push(redis);
  await redis.connect();
  return redis;
}

test.before(async () => {
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'events-reconnect-'));
  server = await startOwnRedis(port, dir);
});

test.after.always(async () => {
  await Promise.all(clients.map((redis) => closeRedisClient(redis).catch(() => undefined)));
  if (server?.exitCode === null) await stopOwnRedis(server);
  rmSync(dir, { recursive: true, force: true });
});

const message = (text: string): ConversationEvent => ({
  type: 'message',
  message: { id: randomUUID(), author: 'agent', text, createdAt: new Date().toISOString(), aiGenerated: false },
});

test('F19: after the subscriber reconnects, a following gets what was published while it was away', async (t) => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const redis = await client();
  const subscriber = redis.duplicate();
  subscriber.on('error', () => undefined);
  clients.push(subscriber);
  await subscriber.connect();
  const follower = createEventFollower(redis, subscriber, prefix);
  const conversationId = randomUUID();

  const delivered: DeliveredEvent[] = [];
  let lost = false;
  const following = await follower.follow(
    conversationId,
    'now',
    (event) => delivered.push(event),
    () => (lost = true),
  );
  const texts = () => delivered.map(({ event }) => (event.type === 'message' ? event.message.text : event.type));

  await createEventPublisher(redis, prefix).publish(conversationId, message('before'));
  await eventually(
    async () => texts(),
    (seen) => seen.includes('before'),
  );

  await stopOwnRedis(server);
  server = await startOwnRedis(port, dir);
  // A client of its own publishes at once, before the follower's connections are back (they retry
  // after a backoff): no subscriber hears it live.
  const other = await client();
  await createEventPublisher(other, prefix).publish(conversationId, message('during the gap'));

  const seen = await eventually(
    async () => ({ texts: texts(), lost }),
    (now) => now.texts.includes('during the gap') || now.lost,
  );
  t.deepEqual(seen, { texts: ['before', 'during the gap'], lost: false });
  t.is(follower.size, 1);

  // Live events go on after the catch-up, each once.
  await createEventPublisher(other, prefix).publish(conversationId, message('after'));
  await eventually(
    async () => texts(),
    (now) => now.includes('after'),
  );
  t.deepEqual(texts(), ['before', 'during the gap', 'after']);
  await following.stop();
  t.is(follower.size, 0);
});
