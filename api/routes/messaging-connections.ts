import type { Operator, Tenancy } from '#tenancy/index.js';
import { PhoneNumberTakenError, type MessagingConnection, type MessagingConnections } from '#messaging/connections.js';
import { conflict, invalidPayload } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedBy } from '../ownership.js';
import { createCredentialRequest, credentialResponse, webhookInfoResponse } from '../schemas/messaging-connections.js';
import type { UserState } from '../state.js';
import type { UserGuard } from '../middleware/token-budgets.js';

export interface MessagingConnectionsRouterDeps {
  tenancy: Pick<Tenancy, 'getOperator' | 'listOperators'>;
  /** Authenticates the user token, within its budgets (`api/middleware/token-budgets.ts`). */
  requireUser: UserGuard;
  connections: Pick<MessagingConnections, 'create' | 'get' | 'credentialsOf' | 'remove'>;
  /** `{base_url}`, without a trailing slash: the callback URLs handed out start with it. */
  publicBaseUrl: string;
  /** False in production, where a connection that accepts unsigned deliveries is refused. */
  allowDevelopmentMode: boolean;
}

/**
 * The messaging channel's set-up, as the dashboard does it: a tenant admin stores the platform
 * credential (its secrets encrypted, never shown again), then reads the callback URL and verify
 * token to enter in the platform's app dashboard. Both routes are for admins only: the verify token
 * is a credential too, and agents have no set-up to do.
 */
export function createMessagingConnectionsRouter({
  tenancy,
  requireUser,
  connections,
  publicBaseUrl,
  allowDevelopmentMode,
}: MessagingConnectionsRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Integrations'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(requireUser(['admin']));

  router.post(
    '/integrations/credentials',
    {
      summary: 'Connect a number of the messaging platform',
      description:
        'Stores a `messaging_api` credential and makes its app connection, with a random webhook path and verify token (read them with webhook-info). ' +
        '`accessToken` and `appSecret` are encrypted at rest and never returned. Without `appSecret` deliveries cannot be verified and are refused. ' +
        "`operatorId` defaults to the tenant's first operator (400 when it has none; 403 for another tenant's, 404 for an unknown one). " +
        "A number (`phoneNumberId`) has one connection within a tenant: 409 otherwise (remove it first to connect the number again); another tenant's connection of the same id takes nothing from this one. Role admin.",
      body: createCredentialRequest,
      responses: { 201: { description: 'The credential, without its secrets', schema: credentialResponse } },
      errors: [404, 409],
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const { name, data, operatorId } = ctx.request.body;
      if (data.developmentMode && !allowDevelopmentMode) {
        throw invalidPayload('Development mode accepts unsigned deliveries and is not available in production.', [
          { path: '/data/developmentMode', message: 'must be false in production' },
        ]);
      }
      const operator = await answeringOperator(tenancy, tenantId, operatorId);
      try {
        const connection = await connections.create(tenantId, { ...data, name, operatorId: operator.id });
        ctx.status = 201;
        ctx.body = presentCredential(connection);
      } catch (error) {
        if (error instanceof PhoneNumberTakenError) throw conflict(error.message);
        throw error;
      }
    },
  );

  router.get(
    '/integrations/app-connections/{connectionId}/webhook-info',
    {
      summary: "A connection's callback URL and verify token",
      description:
        'Enter `webhookUrl` as the callback URL and `verifyToken` as the verify token in the app dashboard, and subscribe to the `messages` field. ' +
        "Another tenant's connection: 403; an unknown one: 404. Role admin.",
      responses: { 200: { description: 'What the platform needs to call the service', schema: webhookInfoResponse } },
      errors: [404],
    },
    async (ctx) => {
      const { connectionId } = ctx.params as { connectionId: string };
      const connection = ownedBy(await connections.get(connectionId), ctx.state.user.tenantId, `app connection ${connectionId}`);
      const { verifyToken } = await connections.credentialsOf(connection);
      ctx.body = {
        webhookUrl: `${publicBaseUrl}/webhooks/messaging_api/${connection.webhookPath}`,
        webhookPath: connection.webhookPath,
        verifyToken,
      };
    },
  );

  router.delete(
    '/integrations/app-connections/{connectionId}',
    {
      summary: 'Remove a connection',
      description:
        'Its webhook address stops answering (404) and its secrets are deleted; the number can then be connected again, with a new access token for instance. ' +
        "Its conversations stay readable; what they would still send is recorded as not delivered. Another tenant's connection: 403; an unknown one: 404. Role admin.",
      responses: { 204: { description: 'Removed' } },
      errors: [404],
    },
    async (ctx) => {
      const { connectionId } = ctx.params as { connectionId: string };
      const connection = ownedBy(await connections.get(connectionId), ctx.state.user.tenantId, `app connection ${connectionId}`);
      await connections.remove(connection);
      ctx.status = 204;
    },
  );

  return router;
}

/** The operator named in the request (the tenant's own), else the tenant's first. */
async function answeringOperator(
  tenancy: Pick<Tenancy, 'getOperator' | 'listOperators'>,
  tenantId: string,
  operatorId: string | undefined,
): Promise<Operator> {
  if (operatorId !== undefined) {
    // An unknown id comes back from redis-om as a record of nulls: `ownedBy` takes that for none.
    return ownedBy(await tenancy.getOperator(operatorId), tenantId, `operator ${operatorId}`);
  }
  const [first] = await tenancy.listOperators(tenantId);
  if (!first) {
    throw invalidPayload('The tenant has no AI operator to answer on this number: create one first, or name one in operatorId.', [
      { path: '/operatorId', message: 'is required while the tenant has no operator' },
    ]);
  }
  return first;
}

/** The credential as the API shows it: never the access token, the app secret or the verify token. */
function presentCredential(connection: MessagingConnection) {
  const { credentialId, type, name, id, operatorId, businessAccountId, phoneNumberId, phoneNumber, apiVersion } = connection;
  return {
    id: credentialId,
    type,
    name,
    connectionId: id,
    operatorId,
    data: {
      businessAccountId,
      phoneNumberId,
      phoneNumber,
      apiVersion,
      hasAppSecret: connection.hasAppSecret,
      developmentMode: connection.developmentMode,
    },
  };
}
