/**
 * `npm run bench:connectors [-- --products 5000]`: how long a full sync of a shop takes, on a stack of
 * its own. The shop is the local fake of a shop admin API (250 products a page, its leaky-bucket rate
 * limit on). After a warm-up of 200 items, measured in one run:
 *  - baseline: the same products, mapped the same way, posted straight to POST /ingest/bulk, until
 *    every job is searchable (what any client of the ingestion API gets);
 *  - the connector's first full sync: from connecting the shop until the sync has sent everything and
 *    cleaned up, and until every product is searchable;
 *  - a second full sync of the unchanged shop (what the schedule does every few hours): every product
 *    is listed, found unchanged since it was last sent, and not sent again.
 */
import { parseArgs } from 'node:util';
import { productItem } from '#connectors/shop/product-item.js';
import { asSent } from '#connectors/send-items.js';
import { startFakeShop } from '#testing/fake-shop.js';
import { log } from '#deploy/local/output.js';
import {
  createMeasuredTenant,
  ingestAll,
  measuredTenantAdmin,
  round,
  startMeasuredStack,
  untilConnectorSynced,
  waitUntilIngested,
} from './measured-stack.js';

const { values: args } = parseArgs({ options: { products: { type: 'string', default: '5000' } } });
const products = Number(args.products);

const shop = await startFakeShop();
shop.addProducts(products);
const stack = await startMeasuredStack('connectors');
try {
  await stack.startApps(1);
  log(`profile ${stack.profile}: ${products} products, 1 API and 1 worker process`);

  const storefront = { url: shop.storefrontUrl, currency: 'EUR' };
  // Sent at the API's default priority (high), as any client's import.
  const itemsAs = (integrationId: string) =>
    shop.products().flatMap((product) => {
      const item = productItem(product, storefront);
      return item ? [asSent(item, { integrationId }, 'high')] : [];
    });

  // Warm-up, not measured: the first items of a fresh stack pay for creating the Weaviate collection and tenant.
  const warmUp = await createMeasuredTenant(stack, ['iq:import']);
  await ingestAll(stack, warmUp, itemsAs('warm-up').slice(0, 200));

  // Baseline: the same items straight through the ingestion API.
  const direct = await createMeasuredTenant(stack, ['iq:import']);
  const items = itemsAs('bench-shop');
  const directStart = performance.now();
  const baseline = await ingestAll(stack, direct, items);
  const directSeconds = (performance.now() - directStart) / 1000;

  // The connector.
  const tenant = await createMeasuredTenant(stack, ['iq:read']);
  const asAdmin = await measuredTenantAdmin(stack, tenant.tenantId);
  const untilSynced = (connectorId: string, previousRunId?: string) =>
    untilConnectorSynced(asAdmin, connectorId, previousRunId ? { previousRunId } : {});

  const syncStart = performance.now();
  const connector = await asAdmin.request<any>('POST', '/connectors/shop', {
    name: 'Bench shop',
    data: { adminUrl: shop.url, apiVersion: shop.apiVersion, accessToken: shop.accessToken, webhookSecret: shop.webhookSecret },
  });
  const first = await untilSynced(connector.id);
  const syncedSeconds = (performance.now() - syncStart) / 1000;
  const failed = await waitUntilIngested(
    stack,
    tenant.tenantId,
    shop.products().map((product) => ({ integrationId: connector.integrationId, externalId: String(product.id) })),
  );
  const searchableSeconds = (performance.now() - syncStart) / 1000;

  const resyncStart = performance.now();
  await asAdmin.request('POST', `/connectors/${connector.id}/sync`, {});
  // Nothing changed, so nothing is sent: the sync is over when its run is.
  const second = await untilSynced(connector.id, first.sync.last.runId);
  const resyncSeconds = (performance.now() - resyncStart) / 1000;
  await asAdmin.request('DELETE', `/connectors/${connector.id}`);

  const shopCalls = shop.requests.length;
  console.log('\nbench:connectors');
  console.table({
    profile: stack.profile,
    products,
    'baseline: bulk POST to all searchable (s)': round(directSeconds),
    'baseline: items/s': round(products / directSeconds),
    'first full sync: sent and cleaned up (s)': round(syncedSeconds),
    'first full sync: all searchable (s)': round(searchableSeconds),
    'first full sync: items/s': round(products / searchableSeconds),
    'ratio to the baseline (time)': round(searchableSeconds / directSeconds, 2),
    'resync of the unchanged shop (s)': round(resyncSeconds),
    'items sent (first, second sync)': `${first.sync.last.sent}, ${second.sync.last.sent}`,
    'items unchanged (second sync)': second.sync.last.unchanged,
    'failed items (baseline, connector)': `${baseline.failed}, ${failed}`,
    'shop API calls (both syncs)': shopCalls,
  });
} finally {
  await stack.stop();
  await shop.close();
}
