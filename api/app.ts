import Koa from 'koa';
import type { DependencyChecks } from '#platform/dependency-health.js';
import type { Logger } from '#platform/logger.js';
import type { RedisClient } from '#platform/redis.js';
import type { Client } from '@temporalio/client';
import type { JobStore } from '#knowledge/jobs.js';
import type { KnowledgeSearch } from '#knowledge/search.js';
import type { Tenancy } from '#tenancy/index.js';
import { errorHandler } from './middleware/error-handler.js';
import { jsonBody } from './middleware/json-body.js';
import { rateLimitPerKey } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import { secureHeaders } from './middleware/secure-headers.js';
import { createAdminApiKeysRouter } from './routes/admin-api-keys.js';
import { createAdminOperatorsRouter } from './routes/admin-operators.js';
import { createAdminTenantsRouter } from './routes/admin-tenants.js';
import { createAdminUsersRouter } from './routes/admin-users.js';
import { createHealthRouter } from './routes/health.js';
import { createIngestRouter } from './routes/ingest.js';
import { createKnowledgeBasesRouter } from './routes/knowledge-bases.js';
import { createOpenApiRouter } from './routes/openapi.js';
import type { ApiState } from './state.js';

export interface AppDeps {
  logger: Logger;
  redis: RedisClient;
  tenancy: Tenancy;
  temporal: Client;
  jobs: JobStore;
  search: KnowledgeSearch;
  checks: DependencyChecks;
  settings: {
    taskQueueBase: string;
    adminToken: string;
    redisPrefix: string;
    bodyLimitBytes: number;
    rateLimitPerMinute: number;
    publicBaseUrl: string;
    version: string;
  };
}

/** The REST API. The order of the middleware below is the order every request goes through. */
export function createApp({ logger, redis, tenancy, temporal, jobs, search, checks, settings }: AppDeps): Koa<ApiState> {
  const app = new Koa<ApiState>();
  app.on('error', (error: Error, ctx?: Koa.Context) => {
    logger.error({ err: error, requestId: ctx?.state?.requestId }, 'unexpected error');
  });

  const rateLimit = rateLimitPerKey(redis, { prefix: settings.redisPrefix, perMinute: settings.rateLimitPerMinute });
  const admin = { tenancy, adminToken: settings.adminToken };
  const routers = [
    createHealthRouter({ checks, version: settings.version }),
    createAdminTenantsRouter(admin),
    createAdminApiKeysRouter(admin),
    createAdminOperatorsRouter(admin),
    createAdminUsersRouter(admin),
    createKnowledgeBasesRouter({ tenancy, rateLimit, search }),
    createIngestRouter({ tenancy, rateLimit, jobs, temporal, taskQueueBase: settings.taskQueueBase }),
  ];
  routers.push(createOpenApiRouter(routers, { version: settings.version, serverUrl: settings.publicBaseUrl }));

  app.use(requestContext(logger));
  app.use(errorHandler());
  app.use(secureHeaders());
  app.use(jsonBody(settings.bodyLimitBytes));
  for (const router of routers) router.middleware().forEach((middleware) => app.use(middleware));
  return app;
}
