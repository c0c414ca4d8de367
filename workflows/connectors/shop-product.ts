import { connectorActivities } from './activity-options.js';
import type { ShopProductInput } from './types.js';

/**
 * A shop told us a product was created or updated: read it from the shop (the webhook's copy may be
 * older than a later one delivered first) and send it to the ingestion API. One workflow per
 * delivery, keyed by the delivery's id, so a redelivered webhook does nothing twice.
 */
export async function shopProductWorkflow(input: ShopProductInput): Promise<{ sent: boolean }> {
  return connectorActivities().page.syncShopProduct(input);
}
