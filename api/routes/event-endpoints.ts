import { sourceUrlProblem } from '#connectors/source-url.js';
import type { DeliveryLog } from '#outbound-events/deliveries.js';
import { EndpointLimitError, type EventEndpoint, type EventEndpoints } from '#outbound-events/endpoints.js';
import { invalidPayload, limitReached } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedBy } from '../ownership.js';
import {
  createEventEndpointRequest,
  createdEventEndpointResponse,
  deliveryListResponse,
  eventEndpointListResponse,
  eventEndpointResponse,
  rotatedSecretResponse,
} from '../schemas/event-endpoints.js';
import type { UserState } from '../state.js';
import type { UserGuard } from '../middleware/token-budgets.js';

export interface EventEndpointsRouterDeps {
  /** Authenticates the user token, within its budgets (`api/middleware/token-budgets.ts`). */
  requireUser: UserGuard;
  endpoints: Pick<EventEndpoints, 'create' | 'get' | 'listForTenant' | 'remove' | 'enable' | 'rotateSecret'>;
  deliveries: Pick<DeliveryLog, 'recent'>;
  /** In production, endpoints are https on public hosts only (the connectors' rules). */
  production: boolean;
}

/**
 * A tenant's endpoints for signed outbound events (docs/outbound-events.md), for its admins: the
 * signing secret is a credential, shown once at creation (and at rotation).
 */
export function createEventEndpointsRouter({ requireUser, endpoints, deliveries, production }: EventEndpointsRouterDeps) {
  const router = new DocumentedRouter<UserState>({
    tags: ['Event endpoints'],
    security: 'userToken',
    errors: [401, 403, 429, 503],
  });
  router.use(requireUser(['admin']));

  const owned = async (ctx: { params: unknown; state: UserState }) => {
    const { endpointId } = ctx.params as { endpointId: string };
    return ownedBy(await endpoints.get(endpointId), ctx.state.user.tenantId, `event endpoint ${endpointId}`);
  };

  router.post(
    '/integrations/event-endpoints',
    {
      summary: 'Register an event endpoint',
      description:
        'Events of the listed types are POSTed to `url`, signed with the `signingSecret` returned here once (stored encrypted, never shown again), in order, retried for 24 hours. ' +
        'In production `url` must be https on a public host (400 otherwise); every connection is checked again when it is made. ' +
        `At most 20 endpoints per tenant (409 endpoint_limit_reached). Role admin.`,
      body: createEventEndpointRequest,
      responses: {
        201: { description: 'The endpoint, with its signing secret (this once)', schema: createdEventEndpointResponse },
      },
      errors: [400, 409],
    },
    async (ctx) => {
      const { url, eventTypes, description = '' } = ctx.request.body;
      const problem = sourceUrlProblem(url, production);
      if (problem) throw invalidPayload(`The address ${problem}.`, [{ path: '/url', message: problem }]);
      try {
        const { endpoint, signingSecret } = await endpoints.create(ctx.state.user.tenantId, { url, eventTypes, description });
        ctx.status = 201;
        ctx.body = { ...present(endpoint), signingSecret };
      } catch (error) {
        if (error instanceof EndpointLimitError) throw limitReached('endpoint_limit_reached', error.message);
        throw error;
      }
    },
  );

  router.get(
    '/integrations/event-endpoints',
    {
      summary: "The tenant's event endpoints",
      description: 'Oldest first, never a signing secret. Role admin.',
      responses: { 200: { description: 'Endpoints', schema: eventEndpointListResponse } },
    },
    async (ctx) => {
      ctx.body = { endpoints: (await endpoints.listForTenant(ctx.state.user.tenantId)).map(present) };
    },
  );

  router.get(
    '/integrations/event-endpoints/{endpointId}',
    {
      summary: 'An event endpoint',
      description:
        "With its status: `disabled` with `disabledReason` once an event failed for the whole retry period. Another tenant's endpoint: 403; an unknown one: 404. Role admin.",
      responses: { 200: { description: 'The endpoint', schema: eventEndpointResponse } },
      errors: [404],
    },
    async (ctx) => {
      ctx.body = present(await owned(ctx));
    },
  );

  router.delete(
    '/integrations/event-endpoints/{endpointId}',
    {
      summary: 'Remove an event endpoint',
      description:
        "Its secret and deliveries are deleted; events on their way to it are dropped. Another tenant's: 403; unknown: 404. Role admin.",
      responses: { 204: { description: 'Removed' } },
      errors: [404],
    },
    async (ctx) => {
      await endpoints.remove(await owned(ctx));
      ctx.status = 204;
    },
  );

  router.post(
    '/integrations/event-endpoints/{endpointId}/enable',
    {
      summary: 'Re-enable a disabled event endpoint',
      description:
        'Deliveries start again from the next event; events emitted while it was disabled are not sent (the deliveries list shows them `skipped`). Role admin.',
      responses: { 200: { description: 'The endpoint, active', schema: eventEndpointResponse } },
      errors: [404],
    },
    async (ctx) => {
      const endpoint = await owned(ctx);
      await endpoints.enable(endpoint.id);
      ctx.body = present((await endpoints.get(endpoint.id)) ?? endpoint);
    },
  );

  router.post(
    '/integrations/event-endpoints/{endpointId}/rotate-secret',
    {
      summary: "Replace an endpoint's signing secret",
      description: 'The new secret signs from the next attempt on; the old one stops at once. Shown this once. Role admin.',
      responses: { 200: { description: 'The new signing secret', schema: rotatedSecretResponse } },
      errors: [404],
    },
    async (ctx) => {
      ctx.body = { signingSecret: await endpoints.rotateSecret(await owned(ctx)) };
    },
  );

  router.get(
    '/integrations/event-endpoints/{endpointId}/deliveries',
    {
      summary: 'Recent delivery attempts of an endpoint',
      description: 'The latest 100 attempts at most, newest first: event, attempt, status code, error, time. Role admin.',
      responses: { 200: { description: 'Attempts', schema: deliveryListResponse } },
      errors: [404],
    },
    async (ctx) => {
      ctx.body = { deliveries: await deliveries.recent((await owned(ctx)).id) };
    },
  );

  return router;
}

/** The endpoint as the API shows it: never its signing secret. */
function present(endpoint: EventEndpoint) {
  const { id, url, description, eventTypes, status, disabledReason, disabledAt, createdAt, updatedAt } = endpoint;
  return { id, url: withoutCredentials(url), description, eventTypes, status, disabledReason, disabledAt, createdAt, updatedAt };
}

/** An address stored before credentials in it were refused, shown without them (`***`): never a secret shown back. */
function withoutCredentials(address: string): string {
  const url = new URL(address);
  if (!url.username && !url.password) return address;
  url.username = '***';
  url.password = '';
  return url.toString();
}
