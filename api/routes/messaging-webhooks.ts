import type { MessagingConnection, MessagingConnections } from '#messaging/connections.js';
import { TakingInUnfinishedError, type Inbound, type TakenIn } from '#messaging/inbound.js';
import { MalformedDeliveryError, readWebhookDelivery } from '#messaging/webhook-payload.js';
import { verifySignature, verifyTokenMatches } from '#messaging/webhook-signature.js';
import type { Middleware } from 'koa';
import { AppError, forbidden, invalidPayload, notFound, toAppError, unauthorized } from '../errors.js';
import { readRawBody } from '../raw-body.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { webhookAcknowledgement } from '../schemas/messaging-webhooks.js';
import type { ApiState } from '../state.js';

export interface MessagingWebhooksRouterDeps {
  connections: Pick<MessagingConnections, 'getByWebhookPath' | 'credentialsOf'>;
  inbound: Inbound;
  /**
   * Outside production only: a development connection may take unsigned deliveries. Production
   * refuses them whatever a stored record says, since a record can come from elsewhere (copied
   * data, a promoted staging store).
   */
  allowDevelopmentMode: boolean;
  metrics?: WebhookMetrics;
}

/**
 * What the webhook counts (the API's metrics): each delivery, by how it was answered; and the events
 * of those acknowledged, by what became of them (`messages` taken in, `duplicates`, `statuses`, `ignored`).
 */
export interface WebhookMetrics {
  answered(outcome: WebhookOutcome): void;
  takenIn?(counts: TakenIn): void;
}

export type WebhookOutcome =
  'acknowledged' | 'malformed' | 'bad_signature' | 'unverifiable' | 'unknown_connection' | 'too_large' | 'unavailable' | 'failed';

const outcomesByStatus: Record<number, WebhookOutcome> = {
  400: 'malformed',
  401: 'bad_signature',
  403: 'unverifiable',
  404: 'unknown_connection',
  413: 'too_large',
  503: 'unavailable',
};

/** Counts each delivery by its answer: acknowledged, or why not. */
function countOutcome(metrics: WebhookMetrics): Middleware {
  return async function countOutcome(_ctx, next) {
    try {
      await next();
      metrics.answered('acknowledged');
    } catch (error) {
      metrics.answered(outcomesByStatus[toAppError(error).status] ?? 'failed');
      throw error;
    }
  };
}

/** The platform sends at most a few megabytes in one delivery. */
const deliveryLimitBytes = 4 * 1024 * 1024;

/**
 * The messaging platform's callback (`{base_url}/webhooks/messaging_api/{webhookPath}`): the
 * verification handshake, and deliveries of customers' messages and of statuses of ours. A delivery
 * is checked against the connection's app secret over its exact bytes, handed to the conversation
 * workflows (durable before the answer) and answered at once; the AI answers afterwards.
 */
export function createMessagingWebhooksRouter({
  connections,
  inbound,
  allowDevelopmentMode,
  metrics = { answered: () => undefined },
}: MessagingWebhooksRouterDeps) {
  const router = new DocumentedRouter<ApiState>({ tags: ['Messaging webhooks'], security: 'none', errors: [404, 503] });

  async function connectionOf(ctx: { params: Record<string, string> }): Promise<MessagingConnection> {
    const connection = await connections.getByWebhookPath(String(ctx.params.webhookPath));
    if (!connection) throw notFound('No messaging connection has this webhook address.');
    return connection;
  }

  router.get(
    '/webhooks/messaging_api/{webhookPath}',
    {
      summary: 'Verify the webhook (platform handshake)',
      description:
        "The platform calls it with `hub.mode=subscribe`, `hub.verify_token` and `hub.challenge`. When the mode is `subscribe` and the token is exactly the connection's verify token, the answer is the challenge as plain text; otherwise 403.",
      responses: { 200: { description: 'The challenge, as sent', contentType: 'text/plain' } },
      errors: [403],
    },
    async (ctx) => {
      const connection = await connectionOf(ctx);
      const { verifyToken } = await connections.credentialsOf(connection);
      const mode = ctx.query['hub.mode'];
      const token = ctx.query['hub.verify_token'];
      const challenge = ctx.query['hub.challenge'];
      if (
        mode !== 'subscribe' ||
        typeof token !== 'string' ||
        typeof challenge !== 'string' ||
        !verifyTokenMatches(token, verifyToken)
      )
        throw forbidden('The verification request does not match this connection.');
      ctx.type = 'text/plain';
      ctx.body = challenge;
    },
  );

  router.post(
    '/webhooks/messaging_api/{webhookPath}',
    {
      summary: 'Receive a delivery (platform events)',
      description:
        "Signed with `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the connection's app secret); unsigned or wrongly signed deliveries are refused unless the connection is in development mode (never in production). Customer messages are handed to their conversations before the answer; a message delivered again does nothing. Statuses update the messages they are about.",
      headers: [{ name: 'X-Hub-Signature-256', required: true, description: '`sha256=<hex>` of the raw body.' }],
      responses: { 200: { description: 'Taken in', schema: webhookAcknowledgement } },
      errors: [400, 401, 403, 413],
    },
    countOutcome(metrics),
    async (ctx) => {
      const connection = await connectionOf(ctx);
      const raw = await readRawBody(ctx, deliveryLimitBytes);
      const { appSecret } = await connections.credentialsOf(connection);
      // With an app secret every delivery is checked; only a development connection without one
      // takes unsigned deliveries, and never in production.
      if (appSecret) {
        if (!verifySignature(raw, ctx.get('x-hub-signature-256') || undefined, appSecret))
          throw unauthorized("The delivery is not signed with this connection's app secret (X-Hub-Signature-256).");
      } else if (!(connection.developmentMode && allowDevelopmentMode)) {
        throw forbidden('This connection has no app secret, so its deliveries cannot be verified: add the app secret.');
      }

      let events;
      try {
        events = readWebhookDelivery(JSON.parse(raw.toString('utf8'))).events;
      } catch (error) {
        if (!(error instanceof SyntaxError || error instanceof MalformedDeliveryError)) throw error;
        ctx.state.log.warn({ connectionId: connection.id, reason: error.message }, 'malformed webhook delivery');
        throw invalidPayload(`The delivery is not a messaging-platform event: ${error.message}`);
      }
      const received = await takeIn(connection, events);
      metrics.takenIn?.(received);
      // Duplicates are normal (the platform delivers at least once) but worth seeing in the request's log.
      if (received.duplicates > 0)
        ctx.state.log.info({ connectionId: connection.id, received }, 'duplicate messages acknowledged');
      ctx.body = { received };
    },
  );

  /** A copy racing another copy of the same message that does not finish in time: 503, so the platform delivers again. */
  async function takeIn(connection: MessagingConnection, events: Parameters<Inbound['takeIn']>[1]): Promise<TakenIn> {
    try {
      return await inbound.takeIn(connection, events);
    } catch (error) {
      if (!(error instanceof TakingInUnfinishedError)) throw error;
      throw new AppError(503, 'unavailable', `${error.message} Deliver it again.`, undefined, { 'Retry-After': '5' });
    }
  }

  return router;
}
