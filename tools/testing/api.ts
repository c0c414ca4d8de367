import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { DestinationStream } from 'pino';
import { closeServer } from '#platform/close-server.js';
import { closeRedisClient, createRedisClient, type RedisClient } from '#platform/redis.js';
import { createLogger } from '#platform/logger.js';
import { poll } from '#platform/poll.js';
import { createTenancy, type Tenancy } from '#tenancy/index.js';
import { prepareListener } from '#api/listener.js';
import { wireApi, type WiredApi } from '#api/wiring.js';
import { requireSetting, type Config } from '#platform/config.js';
import type { Telemetry } from '#platform/telemetry.js';
import { testConfig } from './config.js';
import { createResponseChecker } from './response-conformance.js';
import { deleteKeys } from './redis.js';

export interface TestApi {
  url: string;
  config: Config;
  adminToken: string;
  /** A second client on the same Redis, for looking behind the API. */
  redis: RedisClient;
  tenancy: Tenancy;
  /** What the API holds open now: event streams, and followings of conversations. */
  live: WiredApi['live'];
  /** The API's metrics registry, as its endpoint serves it. */
  metrics: WiredApi['metrics'];
  /** Sends a request; the body, when given, as JSON. */
  request(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<TestResponse>;
  admin(method: string, path: string, body?: unknown): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * The real API, wired exactly as the server entry wires it, listening on a free port, with its
 * own Redis prefix (removed again by `close`).
 */
export async function startTestApi(
  overrides: Record<string, string> = {},
  logDestination?: DestinationStream,
  telemetry: Partial<Telemetry> = {},
): Promise<TestApi> {
  const config = testConfig({ ...(logDestination ? { LOG_LEVEL: 'info' } : {}), ...overrides });
  const logger = createLogger({ level: config.logLevel, name: 'api-test' }, logDestination);
  const api = await wireApi(config, logger, telemetry);
  const server: Server = await new Promise((resolve) => {
    const s = prepareListener(api.app.listen(0, '127.0.0.1', () => resolve(s)));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const redis = createRedisClient(config.redis.url, logger);
  await redis.connect();

  // Every answer a test sees is checked against what the API documents about itself.
  const problemOf = createResponseChecker(await (await fetch(`${url}/openapi.json`)).json());

  const request: TestApi['request'] = async (method, path, options = {}) => {
    const response = await fetch(url + path, {
      method,
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      ...(options.body === undefined
        ? {}
        : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const problem = problemOf({ method, path, status: response.status, contentType: response.headers.get('content-type'), body });
    if (problem)
      throw new Error(
        `${method} ${path} answered ${response.status} unlike its documentation: ${problem}\n${text.slice(0, 2_000)}`,
      );
    return { status: response.status, headers: response.headers, body };
  };

  const adminToken = requireSetting(config.adminToken, 'ADMIN_TOKEN');
  return {
    url,
    config,
    adminToken,
    redis,
    tenancy: createTenancy(redis, config.redis.prefix, { credentials: config.credentials }),
    live: api.live,
    metrics: api.metrics,
    request,
    admin: (method, path, body) => request(method, path, { body, headers: { authorization: `Bearer ${adminToken}` } }),
    async close() {
      await closeServer(server);
      await api.close();
      try {
        // A test that stopped and restarted Redis may close while this client is still reconnecting.
        await poll(() => redis.isReady, Boolean, { timeoutMs: 10_000, intervalMs: 50 });
        await deleteKeys(redis, `${config.redis.prefix}:*`);
      } finally {
        await closeRedisClient(redis);
      }
    },
  };
}

/** A tenant made through the admin API, with its default knowledge base. */
export async function createTenant(api: TestApi, name = 'Acme') {
  const response = await api.admin('POST', '/admin/tenants', { name });
  return response.body as { id: string; name: string; defaultKnowledgeBaseId: string };
}

/** A tenant with an API key of the given scopes, made through the admin API. */
export async function createTenantWithKey(api: TestApi, scopes: string[], keyFields: Record<string, unknown> = {}) {
  const tenant = await createTenant(api, 'Tenant');
  const key = (await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, { name: 'key', scopes, ...keyFields })).body;
  return { tenant, key, headers: { 'x-api-key': key.key as string } };
}

/** A user of the tenant made through the admin API, with the headers its bearer token opens. */
export async function createUser(api: TestApi, tenantId: string, role: 'admin' | 'agent', name = 'Ada') {
  const user = (
    await api.admin('POST', `/admin/tenants/${tenantId}/users`, {
      name,
      email: `${name.toLowerCase()}-${randomUUID()}@shop.test`,
      role,
    })
  ).body;
  return { ...user, headers: { authorization: `Bearer ${user.token as string}` } };
}

/**
 * Every key this test API wrote to Redis and every value under it (hash fields with their values),
 * one a line: what a test searches to prove a secret was never stored as it is.
 */
export async function everythingStored(api: TestApi): Promise<string> {
  const parts: string[] = [];
  for await (const key of api.redis.scanIterator({ MATCH: `${api.config.redis.prefix}:*` })) {
    const type = await api.redis.type(key);
    parts.push(key);
    if (type === 'hash') parts.push(...Object.entries(await api.redis.hGetAll(key)).flat());
    if (type === 'string') parts.push((await api.redis.get(key)) ?? '');
    if (type === 'zset') parts.push(...(await api.redis.zRange(key, 0, -1)));
  }
  return parts.join('\n');
}
