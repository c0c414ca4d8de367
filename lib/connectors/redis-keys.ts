/** Where the built-in connectors keep their records and sync state in Redis, under the deployment's prefix. */
export function connectorKeys(prefix: string) {
  return {
    /** A connector's record (a hash); its secrets only sealed. */
    connector: (connectorId: string) => `${prefix}:connector:${connectorId}`,
    /** A tenant's connectors by creation time (sorted set). */
    ofTenant: (tenantId: string) => `${prefix}:tenant:${tenantId}:connectors`,
    /** The random path a shop's webhooks are delivered to, to the connector's id. */
    byWebhookPath: (webhookPath: string) => `${prefix}:connector-by-webhook-path:${webhookPath}`,
    /** The current run and the last finished one (a hash). */
    syncState: (connectorId: string) => `${prefix}:connector:${connectorId}:sync`,
    /** External ids a run has sent so far (a set): the ids its cleanup keeps. */
    seen: (connectorId: string, runId: string) => `${prefix}:connector:${connectorId}:run:${runId}:seen`,
    /** External ids the last full sync kept, and the incremental ones since (a set). */
    known: (connectorId: string) => `${prefix}:connector:${connectorId}:known`,
    /** What was last sent of each item: `contentHash:metadataHash` by external id (a hash). */
    fingerprints: (connectorId: string) => `${prefix}:connector:${connectorId}:fingerprints`,
    /** Website: what the last crawls learnt of each page (its validators, items and links) by URL (a hash). */
    crawlMemory: (connectorId: string) => `${prefix}:connector:${connectorId}:pages`,
    /** Files: a source's uploaded files by id (a hash of JSON records, `lib/connectors/files/file-records.ts`). */
    files: (connectorId: string) => `${prefix}:connector:${connectorId}:files`,
    /** Files: each file's id by its name, and by the SHA-256 of its latest upload (two hashes). */
    fileNames: (connectorId: string) => `${prefix}:connector:${connectorId}:file-names`,
    fileHashes: (connectorId: string) => `${prefix}:connector:${connectorId}:file-hashes`,
    /** Files: an upload's bytes waiting for the worker (a list of chunks, with a TTL; `lib/connectors/files/staging.ts`). */
    staged: (connectorId: string, stagingId: string) => `${prefix}:connector:${connectorId}:staged:${stagingId}`,
    /** Website: one crawl's state (lib/connectors/website/crawl-state.ts), each key under this stem. */
    crawl: (connectorId: string, runId: string, part: CrawlPart) =>
      `${prefix}:connector:${connectorId}:run:${runId}:crawl:${part}`,
  };
}

/**
 * A crawl's parts: the pages still to fetch in the order found (sorted set), every page found (set),
 * the canonical URLs and content hashes claimed by a page (hash), its counts (hash), its latest
 * failures (list), the robots.txt answers of its hosts (hash), when it last asked each host (hash), the
 * pages found beyond the cap (a HyperLogLog: how many, in 12 KB, however many links point past the cap).
 */
export const crawlParts = ['frontier', 'found', 'claims', 'counts', 'failures', 'robots', 'hosts', 'overCap'] as const;
export type CrawlPart = (typeof crawlParts)[number];
