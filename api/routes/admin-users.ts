import { EmailTakenError } from '#tenancy/index.js';
import { conflict } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { tenantOr404 } from '../ownership.js';
import { presentUser } from '../presenters.js';
import { createUserRequest, createdUserResponse, listOf, userResponse } from '../schemas/admin.js';
import type { AdminRouterDeps } from './admin-tenants.js';

/** People of a tenant's team; their bearer token opens the dashboard-area routes. */
export function createAdminUsersRouter({ tenancy, requireAdmin }: AdminRouterDeps) {
  const router = new DocumentedRouter({ tags: ['Administration'], security: 'admin', errors: [401, 404, 429, 503] });
  router.use(requireAdmin);

  router.post(
    '/admin/tenants/{tenantId}/users',
    {
      summary: 'Create a tenant user (admin or agent)',
      description: 'The `token` appears in this response only. E-mail addresses are unique within a tenant (409 otherwise).',
      body: createUserRequest,
      responses: { 201: { description: 'The user with its bearer token', schema: createdUserResponse } },
      errors: [409],
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      try {
        const { user, token } = await tenancy.createUser(tenant.id, ctx.request.body);
        ctx.status = 201;
        ctx.body = { ...presentUser(user), token };
      } catch (error) {
        if (error instanceof EmailTakenError) throw conflict(error.message);
        throw error;
      }
    },
  );

  router.get(
    '/admin/tenants/{tenantId}/users',
    {
      summary: "List a tenant's users (never their tokens)",
      responses: { 200: { description: 'Oldest first', schema: listOf('users', userResponse) } },
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      ctx.body = { users: (await tenancy.listUsers(tenant.id)).map(presentUser) };
    },
  );

  return router;
}
