import { finishFullRun } from '#connectors/finish-run.js';
import { openConnector } from '#connectors/open-connector.js';
import { sendItems } from '#connectors/send-items.js';
import { productItem, type Storefront } from '#connectors/shop/product-item.js';
import { checkPageCap } from '#connectors/sync-failures.js';
import type { ShopProductInput, SyncOutcome } from '#workflows/connectors/types.js';
import { withHeartbeats } from '../heartbeats.js';
import type { ConnectorActivityDeps } from './deps.js';
import { failingPermanently } from './failures.js';
import { createRunAnnouncements } from './run-announcements.js';

/** Products per page: the most shop admin APIs give, so a catalogue takes the fewest calls. */
export const defaultShopPageSize = 250;

export function createShopSyncActivities(deps: ConnectorActivityDeps) {
  const { connectors, syncState } = deps;
  const announce = createRunAnnouncements(deps);

  async function open(connectorId: string) {
    const { connector, secrets } = await openConnector(connectors, connectorId, 'shop');
    return {
      connector,
      shop: deps.shopApi(connector, secrets.accessToken ?? ''),
      client: deps.ingestionClient(secrets.ingestionKey),
    };
  }

  /** The storefront products link to and price in: the shop's own answer, remembered for webhooks. */
  async function readStorefront(shop: { shop(): Promise<{ domain: string; currency: string }> }, connectorId: string) {
    const info = await shop.shop();
    const storefront: Storefront = { url: `https://${info.domain}`, currency: info.currency };
    await syncState.rememberStorefront(connectorId, storefront);
    return storefront;
  }

  return {
    /** Begins run `runId` and reads the shop's storefront and currency. */
    beginShopSync: ({ connectorId, runId }: { connectorId: string; runId: string }): Promise<Storefront> =>
      failingPermanently(async () => {
        const { shop } = await open(connectorId);
        await syncState.beginRun(connectorId, runId, 'full');
        return readStorefront(shop, connectorId);
      }),

    /** One page of active products, sent to the ingestion API as bulk calls; the cursor of the next page. */
    syncShopPage: (input: {
      connectorId: string;
      runId: string;
      storefront: Storefront;
      cursor?: string;
      /** Pages the run has read before this one. */
      pagesRead?: number;
    }): Promise<{ nextCursor?: string; sent: number }> =>
      failingPermanently(async () => {
        checkPageCap(input.pagesRead, deps.maxPagesPerRun);
        const { connector, shop, client } = await open(input.connectorId);
        const page = await shop.productsPage({
          limit: connector.shop.pageSize ?? defaultShopPageSize,
          ...(input.cursor ? { cursor: input.cursor } : {}),
        });
        const items = page.products.flatMap((product) => productItem(product, input.storefront) ?? []);
        const sent = await sendItems({
          client,
          state: syncState,
          connector,
          items,
          priority: 'low',
          runId: input.runId,
          onBatch: deps.progress,
        });
        return { ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), sent };
      }),

    /** Cleanup of what the shop no longer lists, then the run's record. */
    finishShopSync: ({ connectorId, runId }: { connectorId: string; runId: string }): Promise<SyncOutcome> =>
      failingPermanently(() =>
        withHeartbeats(async () => {
          const { connector, client } = await open(connectorId);
          return announce.finished(connectorId, await finishFullRun({ client, state: syncState, connector, runId }));
        }),
      ),

    /**
     * A product a webhook named, read again from the shop and sent when it is active. A draft, archived
     * or deleted product is not sent; the next full sync's cleanup removes it.
     */
    syncShopProduct: ({ connectorId, productId }: ShopProductInput): Promise<{ sent: boolean }> =>
      failingPermanently(async () => {
        const { connector, shop, client } = await open(connectorId);
        const product = await shop.product(productId);
        if (!product) return { sent: false };
        const storefront = (await syncState.storefront<Storefront>(connectorId)) ?? (await readStorefront(shop, connectorId));
        const item = productItem(product, storefront);
        if (!item) return { sent: false };
        await sendItems({
          client,
          state: syncState,
          connector,
          items: [item],
          priority: 'high',
          oneByOne: true,
          onBatch: deps.progress,
        });
        return { sent: true };
      }),
  };
}
