import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdminApiError, type AdminClient } from '#cli/admin-client.js';
import { apiKeyScopes } from '#tenancy/scopes.js';

export interface DemoTenant {
  tenantId: string;
  knowledgeBaseId: string;
  apiKeyId: string;
  apiKey: string;
  operatorKey: string;
}

/**
 * The ready-made tenant `npm start` prints: made once through the admin API, then kept in the data
 * folder (readable by its owner only) so the same keys work after a restart. A local convenience,
 * like the admin token beside it; production never writes a secret to disk.
 */
export async function ensureDemoTenant(admin: AdminClient, dataDir: string): Promise<DemoTenant> {
  const file = join(dataDir, 'demo-tenant.json');
  const saved = readSaved(file);
  if (saved && (await stillValid(admin, saved))) return saved;

  const tenant = await admin.request<{ id: string; defaultKnowledgeBaseId: string }>('POST', '/admin/tenants', { name: 'Demo' });
  const key = await admin.request<{ id: string; key: string }>('POST', `/admin/tenants/${tenant.id}/api-keys`, {
    name: 'Demo key (every scope)',
    scopes: [...apiKeyScopes],
  });
  const operator = await admin.request<{ operatorKey: string }>('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'Demo assistant',
  });
  const demo: DemoTenant = {
    tenantId: tenant.id,
    knowledgeBaseId: tenant.defaultKnowledgeBaseId,
    apiKeyId: key.id,
    apiKey: key.key,
    operatorKey: operator.operatorKey,
  };
  writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

function readSaved(file: string): DemoTenant | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DemoTenant;
  } catch {
    return undefined;
  }
}

/** The saved tenant still exists and its key is still active (Redis may have been emptied). */
async function stillValid(admin: AdminClient, demo: DemoTenant): Promise<boolean> {
  try {
    const { apiKeys } = await admin.request<{ apiKeys: Array<{ id: string; active: boolean }> }>(
      'GET',
      `/admin/tenants/${demo.tenantId}/api-keys`,
    );
    return apiKeys.some((key) => key.id === demo.apiKeyId && key.active);
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 404) return false;
    throw error;
  }
}
