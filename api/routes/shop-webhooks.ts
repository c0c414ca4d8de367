import type { ConnectorRecords } from '#connectors/records.js';
import type { ProductWebhooks } from '#connectors/product-webhooks.js';
import { verifyShopWebhook } from '#connectors/shop/webhook-signature.js';
import { deliveryDigest, shopWebhookWindowMs, type ShopWebhookReplays } from '#connectors/shop/webhook-replays.js';
import { invalidPayload, notFound, unauthorized } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { readRawBody } from '../raw-body.js';
import { shopWebhookAcknowledgement } from '../schemas/connectors.js';
import type { ApiState } from '../state.js';

export interface ShopWebhooksRouterDeps {
  connectors: Pick<ConnectorRecords, 'getByWebhookPath' | 'secretsOf'>;
  productWebhooks: ProductWebhooks;
  /** Deliveries taken in within the replay window, known by their signed bytes. */
  replays: ShopWebhookReplays;
  now?: () => Date;
}

/** A product, with every variant and image, stays well below this. */
const deliveryLimitBytes = 2 * 1024 * 1024;

/** The events that re-ingest a product; deletions are the full sync's cleanup to find. */
const productTopics = new Set(['products/create', 'products/update']);

/**
 * A shop's webhooks (`{base_url}/webhooks/shop/{webhookPath}`). Each delivery is checked against the
 * connector's webhook secret over its exact bytes, then the product it names is handed to a workflow
 * that reads it from the shop and re-ingests it; the answer comes once that workflow is durable.
 */
export function createShopWebhooksRouter({
  connectors,
  productWebhooks,
  replays,
  now = () => new Date(),
}: ShopWebhooksRouterDeps) {
  const router = new DocumentedRouter<ApiState>({ tags: ['Connectors'], security: 'none', errors: [404, 503] });

  router.post(
    '/webhooks/shop/{webhookPath}',
    {
      summary: "Receive a shop's product webhook",
      description:
        "Signed with `X-Shop-Hmac-Sha256` (base64 HMAC-SHA256 of the raw body with the connector's webhook secret); anything else is refused with 401. " +
        '`products/create` and `products/update` re-ingest the product (read again from the shop, so a late delivery cannot bring back an old version); ' +
        'a delivery is recognised by the digest of its signed body (not by `X-Shop-Webhook-Id`, which is not signed) and not acted on twice within 48 hours; ' +
        'a product whose signed `updated_at` is more than 48 hours old is refused (400) as a replay. Other topics are acknowledged and ignored: deleted products leave with the next full sync.',
      headers: [
        { name: 'X-Shop-Hmac-Sha256', required: true, description: 'base64 HMAC-SHA256 of the raw body.' },
        { name: 'X-Shop-Topic', required: true, description: 'e.g. `products/update`.' },
        {
          name: 'X-Shop-Webhook-Id',
          required: false,
          description: 'Logged only: it is not signed, so deliveries are known by their body.',
        },
      ],
      responses: { 200: { description: 'Taken in', schema: shopWebhookAcknowledgement } },
      errors: [400, 401, 413],
    },
    async (ctx) => {
      const connector = await connectors.getByWebhookPath(String(ctx.params.webhookPath));
      if (!connector) throw notFound('No shop connector has this webhook address.');
      const raw = await readRawBody(ctx, deliveryLimitBytes);
      const { webhookSecret } = await connectors.secretsOf(connector);
      if (!webhookSecret || !verifyShopWebhook(raw, webhookSecret, ctx.get('x-shop-hmac-sha256') || undefined)) {
        ctx.state.log.warn({ connectorId: connector.id }, 'shop webhook with a wrong signature refused');
        throw unauthorized("The webhook is not signed with this connector's webhook secret (X-Shop-Hmac-Sha256).");
      }

      const topic = ctx.get('x-shop-topic');
      if (!productTopics.has(topic)) {
        ctx.body = { topic, action: 'ignored' };
        return;
      }
      const { productId, updatedAt } = productOf(raw);
      if (updatedAt !== undefined && updatedAt < now().getTime() - shopWebhookWindowMs) {
        ctx.state.log.warn({ connectorId: connector.id, webhookId: ctx.get('x-shop-webhook-id') }, 'stale shop webhook refused');
        throw invalidPayload(
          'The product changed more than 48 hours before this delivery (updated_at): a replay is not taken in.',
          [{ path: '/updated_at', message: 'must be within the last 48 hours' }],
        );
      }
      const digest = deliveryDigest(raw);
      if (await replays.wasTakenIn(connector.id, digest)) {
        ctx.body = { topic, productId, action: 'duplicate' };
        return;
      }
      // The workflow id carries the digest too: two copies racing here start one workflow.
      const outcome = await productWebhooks.productChanged(connector, productId, digest);
      await replays.markTakenIn(connector.id, digest);
      ctx.body = { topic, productId, action: outcome === 'started' ? 'reingest' : 'duplicate' };
    },
  );

  return router;
}

/** The product a webhook names, and when it last changed (signed with the body) when it says. */
function productOf(raw: Buffer): { productId: string; updatedAt?: number } {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidPayload('The webhook body is not JSON.');
  }
  const { id, updated_at: updated } = (body ?? {}) as { id?: unknown; updated_at?: unknown };
  if ((typeof id === 'number' && Number.isSafeInteger(id) && id > 0) || (typeof id === 'string' && /^[0-9]{1,20}$/.test(id))) {
    const updatedAt = typeof updated === 'string' ? Date.parse(updated) : NaN;
    return { productId: String(id), ...(Number.isNaN(updatedAt) ? {} : { updatedAt }) };
  }
  throw invalidPayload('The webhook body names no product: `id` must be a positive integer.', [
    { path: '/id', message: 'must be a positive integer' },
  ]);
}
