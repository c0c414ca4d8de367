import type Koa from 'koa';
import { requireSetting, type Config } from '#platform/config.js';
import { dependencyChecks } from '#platform/dependency-health.js';
import type { Logger } from '#platform/logger.js';
import { connectInBackground, createRedisClient } from '#platform/redis.js';
import { createTemporalClient } from '#platform/temporal.js';
import { serviceVersion } from '#platform/version.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { createTenancy } from '#tenancy/index.js';
import { createApp } from './app.js';
import type { ApiState } from './state.js';

export interface WiredApi {
  app: Koa<ApiState>;
  /** Closes every client the API opened. */
  close(): Promise<void>;
}

/**
 * Builds the API from its configuration: one client per dependency, created here once, then the
 * app. The server entry and the integration tests both start the API this way.
 */
export async function wireApi(config: Config, logger: Logger): Promise<WiredApi> {
  const redis = createRedisClient(config.redis.url, logger);
  connectInBackground(redis, logger);
  const weaviate = await createWeaviateClient(config.weaviate);
  const temporal = createTemporalClient(config.temporal);

  const app = createApp({
    logger,
    redis,
    tenancy: createTenancy(redis, config.redis.prefix),
    checks: dependencyChecks({ redis, weaviate, temporal: temporal.client }),
    settings: {
      adminToken: requireSetting(config.adminToken, 'ADMIN_TOKEN'),
      redisPrefix: config.redis.prefix,
      bodyLimitBytes: config.bodyLimitBytes,
      rateLimitPerMinute: config.rateLimitPerMinute,
      publicBaseUrl: config.publicBaseUrl,
      version: serviceVersion,
    },
  });

  return {
    app,
    async close() {
      await Promise.allSettled([redis.isOpen ? redis.quit() : undefined, weaviate.close(), temporal.close()]);
    },
  };
}
