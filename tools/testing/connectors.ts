import type { ExecutionContext } from 'ava';
import { createSourceStore } from '#knowledge/sources.js';
import { parseSourceKey } from '#workflows/ids.js';
import { createUser, type TestApi } from './api.js';
import { eventually } from './eventually.js';
import { importingTenant } from './ingestion.js';

/** A tenant with an API key that may import and read, and an admin user who sets up connectors. */
export async function connectingTenant(api: TestApi) {
  const tenant = await importingTenant(api);
  const { headers: userHeaders } = await createUser(api, tenant.tenant.id, 'admin', 'Grace');
  return {
    ...tenant,
    userHeaders,
    /** Calls a route as the admin user. */
    asAdmin: (method: string, path: string, body?: unknown) => api.request(method, path, { headers: userHeaders, body }),
  };
}

export type ConnectingTenant = Awaited<ReturnType<typeof connectingTenant>>;

/** Waits until the connector has a finished run other than `previousRunId`; returns the connector as the API shows it. */
export async function untilSynced(tenant: ConnectingTenant, connectorId: string, previousRunId?: string, timeoutMs = 120_000) {
  const { body } = await eventually(
    () => tenant.asAdmin('GET', `/connectors/${connectorId}`),
    ({ body }) => Boolean(body?.sync?.last && body.sync.last.runId !== previousRunId && !body.sync.running),
    { timeoutMs, intervalMs: 250 },
  );
  return body;
}

/** The external ids of the sources of one origin in a knowledge base, looked up behind the API. */
export async function sourcesOfOrigin(
  api: TestApi,
  tenantId: string,
  knowledgeBaseId: string,
  origin: string,
): Promise<string[]> {
  const keys = await createSourceStore(api.redis, api.config.redis.prefix).listByOrigin(tenantId, knowledgeBaseId, origin);
  return keys.map((key) => parseSourceKey(key).externalId);
}

/** Asserts that a connector's last run failed at the page cap, deleting nothing, with the reason the tenant reads. */
export function assertStoppedAtPageCap(
  t: ExecutionContext,
  connector: { sync: { last: Record<string, unknown> } },
  maxPages: number,
) {
  t.like(connector.sync.last, { outcome: 'failed', mode: 'full', deleted: 0 });
  t.is(
    connector.sync.last.error,
    `The source listed more than ${maxPages} pages, the most one sync reads; the sync stopped and nothing was deleted. ` +
      'Check the source, or use larger pages.',
  );
}

/** Uploads a file to a files source as a browser's form does: in a part named `file`, with its name (and type). */
export async function uploadFile(
  api: Pick<TestApi, 'url'>,
  headers: Record<string, string>,
  connectorId: string,
  file: { name: string; bytes: Uint8Array | string; type?: string },
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  // Copied: a Blob takes no view of a shared buffer.
  const part = typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes);
  form.append('file', new Blob([part], file.type ? { type: file.type } : {}), file.name);
  const response = await fetch(`${api.url}/connectors/${connectorId}/files`, { method: 'POST', headers, body: form });
  return { status: response.status, body: await response.json() };
}
