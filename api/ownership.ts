import type { KnowledgeBase, Tenancy, Tenant } from '#tenancy/index.js';
import { forbidden, notFound } from './errors.js';

/** A tenant by id, or 404. */
export async function tenantOr404(tenancy: Pick<Tenancy, 'getTenant'>, tenantId: string): Promise<Tenant> {
  const tenant = await tenancy.getTenant(tenantId);
  if (!tenant) throw notFound(`No tenant ${tenantId}.`);
  return tenant;
}

/**
 * `record` when it belongs to `tenant`, else 404: on the admin routes the path names the tenant, so a
 * record of another tenant is simply not there. `what` names it in the message, such as `user <id>`.
 */
export function inTenantOr404<T extends { tenantId: string }>(record: T | undefined, tenant: Tenant, what: string): T {
  if (!record || record.tenantId !== tenant.id) throw notFound(`No ${what} in tenant ${tenant.id}.`);
  return record;
}

/**
 * `record` when the tenant owns it: 404 when it exists nowhere (also a record store's empty
 * stand-in without a tenant), 403 when it belongs to another tenant. `what` names it in the
 * message, such as `knowledge base <id>`.
 */
export function ownedBy<T extends { tenantId: string }>(record: T | undefined, tenantId: string, what: string): T {
  if (!record?.tenantId) throw notFound(`No ${what}.`);
  if (record.tenantId !== tenantId) throw forbidden(`${what[0]!.toUpperCase()}${what.slice(1)} belongs to another tenant.`);
  return record;
}

/** A knowledge base the tenant owns (see `ownedBy`). */
export async function ownedKnowledgeBase(
  tenancy: Pick<Tenancy, 'getKnowledgeBase'>,
  tenantId: string,
  knowledgeBaseId: string,
): Promise<KnowledgeBase> {
  return ownedBy(await tenancy.getKnowledgeBase(knowledgeBaseId), tenantId, `knowledge base ${knowledgeBaseId}`);
}
