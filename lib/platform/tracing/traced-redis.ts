import type { Tracer } from '@opentelemetry/api';
import type { RedisClient } from '../redis.js';
import { inClientSpan } from './traced-calls.js';

/** Commands that are not one call to trace: transactions are traced by what they run, Pub/Sub is long-lived. */
const untraced = new Set(['MULTI', 'QUIT', 'SUBSCRIBE', 'UNSUBSCRIBE', 'PSUBSCRIBE', 'PUNSUBSCRIBE']);

/**
 * The Redis client with every command in a client span named after the command (`HGETALL`), with
 * `db.system` and the command only (never keys or values: they hold tenants' ids and data). A thin
 * wrapper at our client boundary: node-redis has no instrumentation that works under ESM without a
 * loader hook. A command method is one whose upper-case name is also a method (`hGetAll`, `HGETALL`).
 */
export function traceRedisCommands(client: RedisClient, tracer: Tracer): RedisClient {
  const wrapped = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string') return value.bind(target);
      const command = property.toUpperCase();
      if (untraced.has(command) || typeof Reflect.get(target, command) !== 'function') return value.bind(target);
      let traced = wrapped.get(property);
      if (!traced) {
        const method = value as (...args: unknown[]) => Promise<unknown>;
        traced = (...args: unknown[]) =>
          inClientSpan(tracer, command, { 'db.system': 'redis', 'db.operation.name': command }, () => method.apply(target, args));
        wrapped.set(property, traced);
      }
      return traced;
    },
  });
}
