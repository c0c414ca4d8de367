import { randomBytes, randomUUID } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { sealedFields } from '#platform/sealed-fields.js';
import type { SecretBox } from '#platform/secret-box.js';
import { connectorKeys } from './redis-keys.js';

export type ConnectorKind = 'shop' | 'cms' | 'website' | 'files';

interface ConnectorBase {
  id: string;
  tenantId: string;
  kind: ConnectorKind;
  name: string;
  knowledgeBaseId: string;
  /** `<kind>-<id>`: the `integrationId` and the `sourceOrigin` of every item the connector sends. */
  integrationId: string;
  /** The connector's own API key (scope `iq:import`), through which it ingests like any other client. */
  apiKeyId: string;
  /** How often the schedule starts a sync. */
  syncEveryMinutes: number;
  createdAt: string;
}

/** An online shop: its admin API, read with an access token; product webhooks arrive on `webhookPath`. */
export interface ShopConnector extends ConnectorBase {
  kind: 'shop';
  /** `pageSize`: products per page, at most 250 (the default). */
  shop: { adminUrl: string; apiVersion: string; pageSize?: number };
  /** The random last segment of the webhook URL: 192 bits, derived from nothing. */
  webhookPath: string;
}

/** A content-management site: its REST API, read anonymously or with an application password. */
export interface CmsConnector extends ConnectorBase {
  kind: 'cms';
  /** `pageSize`: entries per page, at most 100 (the default). */
  cms: { siteUrl: string; username: string | null; pageSize?: number };
  /** Syncs in between are incremental (by modification time); a full one, with cleanup, this often. */
  fullSyncEveryHours: number;
}

/** What a website connector crawls, and how gently (docs/sources.md). */
export interface WebsiteSettings {
  /** Pages the crawl starts from; their links are followed within the scope. */
  startUrls: string[];
  /** Sitemaps (or sitemap indexes, gzipped or not) whose pages the crawl starts from too. */
  sitemaps: string[];
  /** Path patterns (robots.txt style: `*`, `$`) a page must match, when any are given; `exclude` wins. */
  include: string[];
  exclude: string[];
  /** Pages one crawl takes at most (default 10,000). */
  maxPages: number;
  /** Requests in flight per host at most, and started per second at most (robots.txt's Crawl-delay may slow it). */
  concurrency: number;
  requestsPerSecond: number;
}

/** A website, crawled from its start URLs and sitemaps within its hosts; every crawl is full, with cleanup. */
export interface WebsiteConnector extends ConnectorBase {
  kind: 'website';
  website: WebsiteSettings;
}

/**
 * Files uploaded by hand (docs/sources.md): nothing to poll, so no schedule; each file is taken in by
 * a workflow of its own at each upload or deletion (`lib/connectors/files/`).
 */
export interface FilesConnector extends Omit<ConnectorBase, 'syncEveryMinutes'> {
  kind: 'files';
  /** Never polled. */
  syncEveryMinutes: null;
}

export type Connector = ShopConnector | CmsConnector | WebsiteConnector | FilesConnector;

/** The secrets a connector works with: sealed at rest, opened only by the activities that need them. */
export interface ConnectorSecrets {
  /** The secret of the connector's own API key. */
  ingestionKey: string;
  /** Shop: the admin API access token. */
  accessToken?: string;
  /** Shop: the secret its webhooks are signed with. */
  webhookSecret?: string;
  /** CMS: the application password of `username`. */
  applicationPassword?: string;
}

export type NewConnector =
  | (Omit<ShopConnector, 'id' | 'tenantId' | 'integrationId' | 'webhookPath' | 'createdAt'> & { secrets: ConnectorSecrets })
  | (Omit<CmsConnector, 'id' | 'tenantId' | 'integrationId' | 'createdAt'> & { secrets: ConnectorSecrets })
  | (Omit<WebsiteConnector, 'id' | 'tenantId' | 'integrationId' | 'createdAt'> & { secrets: ConnectorSecrets })
  | (Omit<FilesConnector, 'id' | 'tenantId' | 'integrationId' | 'createdAt'> & { secrets: ConnectorSecrets });

const secretFields = {
  ingestionKey: 'ingestionKeySealed',
  accessToken: 'accessTokenSealed',
  webhookSecret: 'webhookSecretSealed',
  applicationPassword: 'applicationPasswordSealed',
} as const;

const connectorIdFormat = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const webhookPathFormat = /^[A-Za-z0-9_-]{32}$/;

/**
 * Connectors in Redis hashes under `prefix`: the settings as JSON, the secrets sealed with `box`, each
 * bound to its tenant, connector and field. When Redis cannot be reached, every function fails with a
 * DependencyUnavailableError.
 */
export function createConnectorRecords(redis: RedisClient, prefix: string, box: SecretBox, now: () => Date = () => new Date()) {
  const keys = connectorKeys(prefix);
  const secrets = sealedFields(redis, box, secretFields);

  async function get(id: string): Promise<Connector | undefined> {
    if (!connectorIdFormat.test(id)) return undefined;
    const { record } = await redis.hGetAll(keys.connector(id));
    return record ? (JSON.parse(record) as Connector) : undefined;
  }

  return tagUnavailable('redis', {
    async create(tenantId: string, input: NewConnector): Promise<Connector> {
      const id = randomUUID();
      const { secrets: given, ...settings } = input;
      const connector = {
        ...settings,
        id,
        tenantId,
        integrationId: `${input.kind}-${id}`,
        ...(input.kind === 'shop' ? { webhookPath: randomBytes(24).toString('base64url') } : {}),
        createdAt: now().toISOString(),
      } as Connector;
      const multi = redis
        .multi()
        .hSet(keys.connector(id), { record: JSON.stringify(connector), tenantId, ...secrets.seal(connector, given) })
        .zAdd(keys.ofTenant(tenantId), { score: Date.parse(connector.createdAt), value: id });
      if (connector.kind === 'shop') multi.set(keys.byWebhookPath(connector.webhookPath), id);
      await multi.exec();
      return connector;
    },

    /** A connector by id; undefined when there is none (or the id is not a UUID). */
    get,

    async getByWebhookPath(webhookPath: string): Promise<ShopConnector | undefined> {
      if (!webhookPathFormat.test(webhookPath)) return undefined;
      const id = await redis.get(keys.byWebhookPath(webhookPath));
      const connector = id ? await get(id) : undefined;
      return connector?.kind === 'shop' ? connector : undefined;
    },

    /** Oldest first. */
    async listForTenant(tenantId: string): Promise<Connector[]> {
      const ids = await redis.zRange(keys.ofTenant(tenantId), 0, -1);
      const found = await Promise.all(ids.map(get));
      return found.filter((connector): connector is Connector => connector !== undefined);
    },

    /** How many connectors the tenant has. */
    countForTenant: (tenantId: string): Promise<number> => redis.zCard(keys.ofTenant(tenantId)),

    /** Every connector's secrets sealed again with the current key (see `sealedFields.resealAll`). */
    resealAll: () => secrets.resealAll(keys.connector),

    /** The connector's secrets, decrypted (see `sealedFields`); an Error when it does not exist. */
    async secretsOf({ id }: Pick<Connector, 'id'>): Promise<ConnectorSecrets> {
      const opened = await secrets.open(keys.connector(id), id);
      if (!opened?.ingestionKey) throw new Error(`No connector ${id}.`);
      return opened as ConnectorSecrets;
    },

    /**
     * Removes the record, its look-ups and its sync state; the content it ingested stays. (A crawl's own
     * keys expire within a week of its last step: its run is ended by the removal.)
     */
    async remove(connector: Connector): Promise<void> {
      const multi = redis
        .multi()
        .del([
          keys.connector(connector.id),
          keys.syncState(connector.id),
          keys.known(connector.id),
          keys.fingerprints(connector.id),
          keys.crawlMemory(connector.id),
          keys.files(connector.id),
          keys.fileNames(connector.id),
          keys.fileHashes(connector.id),
        ])
        .zRem(keys.ofTenant(connector.tenantId), connector.id);
      if (connector.kind === 'shop') multi.del(keys.byWebhookPath(connector.webhookPath));
      await multi.exec();
    },
  });
}

export type ConnectorRecords = ReturnType<typeof createConnectorRecords>;
