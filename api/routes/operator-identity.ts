import type { Tenancy } from '#tenancy/index.js';
import { defaultIdentityGraceSeconds, type OperatorIdentities } from '#tenancy/operator-identity.js';
import { conflict } from '../errors.js';
import type { UserGuard } from '../middleware/token-budgets.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedBy } from '../ownership.js';
import {
  identitySecretResponse,
  operatorIdentityResponse,
  rotateIdentitySecretRequest,
  updateOperatorIdentityRequest,
} from '../schemas/operator-identity.js';
import type { UserState } from '../state.js';

export interface OperatorIdentityRouterDeps {
  tenancy: Pick<Tenancy, 'getOperator'>;
  requireUser: UserGuard;
  identities: Pick<OperatorIdentities, 'status' | 'rotateSecret' | 'setRequired'>;
}

/**
 * Verified visitor identity, set up by a tenant admin (user token, role admin): the operator's
 * identity secret (created or rotated, shown once, sealed at rest) and whether verification is
 * required. Another tenant's operator: 403; an unknown one: 404.
 */
export function createOperatorIdentityRouter({ tenancy, requireUser, identities }: OperatorIdentityRouterDeps) {
  const router = new DocumentedRouter<UserState>({
    tags: ['Integrations'],
    security: 'userToken',
    errors: [401, 403, 404, 429, 503],
  });
  router.use(requireUser(['admin']));

  const ownedOperator = async (ctx: { state: UserState; params: Record<string, string> }) => {
    const { operatorId } = ctx.params;
    return ownedBy(await tenancy.getOperator(operatorId!), ctx.state.user.tenantId, `operator ${operatorId}`);
  };

  router.get(
    '/integrations/operators/{operatorId}/identity',
    {
      summary: "An operator's visitor identity settings",
      description: 'Whether verification is required, and whether a secret exists (never the secret). Role admin.',
      responses: { 200: { description: 'The settings', schema: operatorIdentityResponse } },
    },
    async (ctx) => {
      ctx.body = await identities.status(await ownedOperator(ctx));
    },
  );

  router.post(
    '/integrations/operators/{operatorId}/identity-secret',
    {
      summary: "Create or rotate an operator's identity secret",
      description:
        "The site's server signs visitor identity tokens with it (docs/widget.md). The new secret is in this answer only and verifies at once; " +
        `the one it replaces keeps verifying for \`graceSeconds\` (default ${defaultIdentityGraceSeconds}, 24 hours), then stops; a secret replaced by an earlier rotation stops at once. ` +
        'Stored encrypted; never returned again. Role admin.',
      body: rotateIdentitySecretRequest,
      bodyOptional: true,
      responses: { 201: { description: 'The new secret, shown once', schema: identitySecretResponse } },
    },
    async (ctx) => {
      const operator = await ownedOperator(ctx);
      const { secret, status } = await identities.rotateSecret(operator, ctx.request.body.graceSeconds);
      ctx.status = 201;
      ctx.set('cache-control', 'no-store');
      ctx.body = { ...status, secret };
    },
  );

  router.patch(
    '/integrations/operators/{operatorId}/identity',
    {
      summary: 'Require verified visitors, or stop requiring them',
      description:
        '`required: true` refuses visitors without a valid identity token (403 `identity_required`), on new conversations and on those started before. ' +
        'The operator needs an identity secret first: 409 otherwise. Role admin.',
      body: updateOperatorIdentityRequest,
      responses: { 200: { description: 'The settings', schema: operatorIdentityResponse } },
      errors: [409],
    },
    async (ctx) => {
      const operator = await ownedOperator(ctx);
      const { required } = ctx.request.body;
      if (required && !(await identities.status(operator)).hasSecret)
        throw conflict('Create an identity secret first: requiring verification without one would refuse every visitor.');
      ctx.body = await identities.setRequired(operator, required);
    },
  );

  return router;
}
