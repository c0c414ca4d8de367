import { DocumentedRouter } from '../openapi/documented-router.js';
import { inTenantOr404, tenantOr404 } from '../ownership.js';
import { presentApiKey } from '../presenters.js';
import { apiKeyResponse, createApiKeyRequest, createdApiKeyResponse, listOf, updateApiKeyRequest } from '../schemas/admin.js';
import type { AdminRouterDeps } from './admin-tenants.js';

/** API keys: the secret is shown once at creation and stored only as a hash. */
export function createAdminApiKeysRouter({ tenancy, requireAdmin }: AdminRouterDeps) {
  const router = new DocumentedRouter({ tags: ['Administration'], security: 'admin', errors: [401, 404, 429, 503] });
  router.use(requireAdmin);

  router.post(
    '/admin/tenants/{tenantId}/api-keys',
    {
      summary: 'Create an API key',
      description: 'An `expiresAt` in the past is accepted and makes an expired key. The `key` appears in this response only.',
      body: createApiKeyRequest,
      responses: { 201: { description: 'The key with its secret', schema: createdApiKeyResponse } },
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      const { apiKey, secret } = await tenancy.createApiKey(tenant.id, ctx.request.body);
      ctx.status = 201;
      ctx.body = { ...presentApiKey(apiKey), key: secret };
    },
  );

  router.get(
    '/admin/tenants/{tenantId}/api-keys',
    {
      summary: "List a tenant's API keys (never their secrets)",
      responses: { 200: { description: 'Oldest first', schema: listOf('apiKeys', apiKeyResponse) } },
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      ctx.body = { apiKeys: (await tenancy.listApiKeys(tenant.id)).map(presentApiKey) };
    },
  );

  router.patch(
    '/admin/tenants/{tenantId}/api-keys/{keyId}',
    {
      summary: 'Deactivate an API key',
      description:
        'Deactivation is final. Rotate by creating a key with the same scopes, deploying it, then deactivating the old one.',
      body: updateApiKeyRequest,
      responses: { 200: { description: 'The key', schema: apiKeyResponse } },
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      const apiKey = inTenantOr404(await tenancy.getApiKey(ctx.params.keyId!), tenant, `API key ${ctx.params.keyId}`);
      ctx.body = presentApiKey(await tenancy.deactivateApiKey(apiKey));
    },
  );

  return router;
}
