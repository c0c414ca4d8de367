import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdminApiError, type AdminClient } from '#cli/admin-client.js';
import { apiKeyScopes } from '#tenancy/scopes.js';
import { ensureDemoAgent, type DemoAgent, type DemoAgentApi } from './demo-agent.js';

export interface DemoTenant extends DemoAgent {
  tenantId: string;
  knowledgeBaseId: string;
  apiKeyId: string;
  apiKey: string;
  operatorKey: string;
}

/**
 * The ready-made tenant `npm start` prints, with its agent: made once through the admin API, then
 * kept in the data folder (readable by its owner only) so the same keys and token work after a
 * restart. A local convenience, like the admin token beside it; production never writes a secret to
 * disk.
 */
export async function ensureDemoTenant(api: DemoAgentApi, dataDir: string): Promise<DemoTenant> {
  const file = join(dataDir, 'demo-tenant.json');
  const saved = readSaved(file);
  const valid = saved && (await stillValid(api.admin, saved));
  const tenant = valid ? saved : await createTenant(api.admin);
  // A saved agent belongs to the saved tenant; a new tenant gets a new one.
  const agent = await ensureDemoAgent(api, tenant.tenantId, valid ? saved : undefined);
  const demo: DemoTenant = { ...tenant, ...agent };
  if (JSON.stringify(demo) !== JSON.stringify(saved)) writeOwnerOnly(file, JSON.stringify(demo, null, 2));
  return demo;
}

async function createTenant(admin: AdminClient): Promise<Omit<DemoTenant, keyof DemoAgent>> {
  const tenant = await admin.request<{ id: string; defaultKnowledgeBaseId: string }>('POST', '/admin/tenants', { name: 'Demo' });
  const key = await admin.request<{ id: string; key: string }>('POST', `/admin/tenants/${tenant.id}/api-keys`, {
    name: 'Demo key (every scope)',
    scopes: [...apiKeyScopes],
  });
  const operator = await admin.request<{ operatorKey: string }>('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'Demo assistant',
  });
  return {
    tenantId: tenant.id,
    knowledgeBaseId: tenant.defaultKnowledgeBaseId,
    apiKeyId: key.id,
    apiKey: key.key,
    operatorKey: operator.operatorKey,
  };
}

/** Written readable by its owner only; a file an earlier version left with another mode is narrowed too. */
function writeOwnerOnly(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** What an earlier start saved; a record from before the demo agent lacks its fields. */
function readSaved(file: string): (Omit<DemoTenant, keyof DemoAgent> & Partial<DemoAgent>) | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DemoTenant;
  } catch {
    return undefined;
  }
}

/** The saved tenant still exists and its key is still active (Redis may have been emptied). */
async function stillValid(admin: AdminClient, demo: { tenantId: string; apiKeyId: string }): Promise<boolean> {
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
