import { heartbeat } from '@temporalio/activity';
import type { ConnectorActivityDeps } from '#activities/connectors/deps.js';
import { createIngestionClient } from '#connector-sdk/index.js';
import { createCmsApi } from '#connectors/cms/cms-api.js';
import { createConnectorRecords } from '#connectors/records.js';
import { createShopApi } from '#connectors/shop/shop-api.js';
import { createSyncState } from '#connectors/sync-state.js';
import type { Logger } from '#platform/logger.js';
import type { OutboundHttp } from '#platform/outbound/outbound-http.js';
import type { RedisClient } from '#platform/redis.js';
import type { SecretBox } from '#platform/secret-box.js';

/**
 * The connectors' clients in a worker: records and sync state in Redis, the sources' APIs, and the
 * service's own public ingestion API at `ingestionApiUrl`. The sources are reached through `http`, the
 * guarded way out (platform/outbound/); the ingestion API, an address of our own, is not. Every wait for a rate-limited source or a
 * retried ingestion call heartbeats, so Temporal knows the activity is alive while it waits.
 */
export function createConnectorActivityDeps(options: {
  redis: RedisClient;
  prefix: string;
  secretBox: SecretBox;
  ingestionApiUrl: string;
  http: OutboundHttp;
  logger: Logger;
}): ConnectorActivityDeps {
  const { logger } = options;
  const onWait = (source: string) => (event: { status?: number; waitMs: number; attempt: number }) => {
    logger.info({ source, ...event }, 'connector waits before asking again');
    heartbeat();
  };
  return {
    connectors: createConnectorRecords(options.redis, options.prefix, options.secretBox),
    syncState: createSyncState(options.redis, options.prefix),
    ingestionClient: (apiKey) =>
      createIngestionClient({
        baseUrl: options.ingestionApiUrl,
        apiKey,
        onRetry: ({ method, path, retry, delayMs, status }) => {
          logger.warn({ method, path, retry, delayMs, status }, 'ingestion API call retried');
          heartbeat();
        },
      }),
    shopApi: (connector, accessToken) =>
      createShopApi({
        baseUrl: connector.shop.adminUrl,
        apiVersion: connector.shop.apiVersion,
        accessToken,
        http: options.http,
        onWait: onWait('shop'),
      }),
    cmsApi: (connector, applicationPassword) =>
      createCmsApi({
        siteUrl: connector.cms.siteUrl,
        ...(connector.cms.username && applicationPassword ? { username: connector.cms.username, applicationPassword } : {}),
        http: options.http,
        onWait: onWait('cms'),
      }),
  };
}
