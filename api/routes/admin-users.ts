import { EmailTakenError } from '#tenancy/index.js';
import { conflict } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { inTenantOr404, tenantOr404 } from '../ownership.js';
import { presentUser } from '../presenters.js';
import { createUserRequest, createdUserResponse, listOf, updateUserRequest, userResponse } from '../schemas/admin.js';
import type { AdminRouterDeps } from './admin-tenants.js';

/**
 * People of a tenant's team; their bearer token opens the dashboard-area routes. A token expires
 * (USER_TOKEN_LIFETIME_DAYS), can be rotated, and stops working when its user is deactivated.
 */
export function createAdminUsersRouter({ tenancy, requireAdmin }: AdminRouterDeps) {
  const router = new DocumentedRouter({ tags: ['Administration'], security: 'admin', errors: [401, 404, 429, 503] });
  router.use(requireAdmin);

  async function userOr404(ctx: { params: Record<string, string> }) {
    const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
    return inTenantOr404(await tenancy.getUser(ctx.params.userId!), tenant, `user ${ctx.params.userId}`);
  }

  router.post(
    '/admin/tenants/{tenantId}/users',
    {
      summary: 'Create a tenant user (admin or agent)',
      description:
        'The `token` appears in this response only and works until `tokenExpiresAt` (USER_TOKEN_LIFETIME_DAYS). E-mail addresses are unique within a tenant (409 otherwise).',
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

  router.patch(
    '/admin/tenants/{tenantId}/users/{userId}',
    {
      summary: 'Deactivate or reactivate a user',
      description:
        "`active: false` refuses the user's token at once (401); `active: true` lets the same token work again until it expires. To revoke a leaked token, rotate it.",
      body: updateUserRequest,
      responses: { 200: { description: 'The user', schema: userResponse } },
    },
    async (ctx) => {
      const user = await userOr404(ctx);
      ctx.body = presentUser(await tenancy.setUserActive(user, ctx.request.body.active));
    },
  );

  router.post(
    '/admin/tenants/{tenantId}/users/{userId}/token',
    {
      summary: "Rotate a user's token",
      description:
        'Issues a new token with a full lifetime; the previous token stops working at once. The `token` appears in this response only. A deactivated user stays deactivated.',
      responses: { 201: { description: 'The user with its new bearer token', schema: createdUserResponse } },
    },
    async (ctx) => {
      const user = await userOr404(ctx);
      const rotated = await tenancy.rotateUserToken(user);
      ctx.status = 201;
      ctx.body = { ...presentUser(rotated.user), token: rotated.token };
    },
  );

  return router;
}
