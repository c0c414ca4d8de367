import type { KnowledgeBase, Tenancy, Tenant } from '#tenancy/index.js';
import { forbidden, notFound } from './errors.js';

/** A tenant by id, or 404. */
export async function tenantOr404(tenancy: Pick<Tenancy, 'getTenant'>, tenantId: string): Promise<Tenant> {
  const tenant = await tenancy.getTenant(tenantId);
  if (!tenant) throw notFound(`No tenant ${tenantId}.`);
  return tenant;
}

/**
 * A knowledge base the tenant owns: 404 when the id exists nowhere, 403 when it belongs to another
 * tenant.
 */
export async function ownedKnowledgeBase(
  tenancy: Pick<Tenancy, 'getKnowledgeBase'>,
  tenantId: string,
  knowledgeBaseId: string,
): Promise<KnowledgeBase> {
  const knowledgeBase = await tenancy.getKnowledgeBase(knowledgeBaseId);
  if (!knowledgeBase) throw notFound(`No knowledge base ${knowledgeBaseId}.`);
  if (knowledgeBase.tenantId !== tenantId) throw forbidden(`Knowledge base ${knowledgeBaseId} belongs to another tenant.`);
  return knowledgeBase;
}
