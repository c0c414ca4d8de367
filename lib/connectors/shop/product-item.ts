/**
 * One shop product as an ingestion item. Two audiences read it: the model answers from `content`, so that
 * is plain sentences-as-lines a visitor's question can match ("Price: from 9.99 EUR", "Size: S, M, L");
 * the widget renders product cards from `sourceData`, so that keeps the exact fields.
 *
 * `content` says whether the product is in stock but never how many are left: the SDK hashes title and
 * content, and a hash that changed with every sale would re-embed the catalogue all day.
 */
import type { SyncItem } from '#connector-sdk/index.js';
import { htmlToText } from '#knowledge/text/html.js';
import type { ShopProduct, ShopVariant } from './shop-types.js';
import type { Storefront } from '#workflows/connectors/types.js';

export type { Storefront };

export interface ProductSourceData {
  title: string;
  description: string;
  vendor: string;
  productType: string;
  tags: string[];
  price: string | null;
  compareAtPrice: string | null;
  currency: string;
  sku: string | null;
  inventory: { inStock: boolean; quantityAvailable: number };
  images: Array<{ url: string; alt: string | null }>;
  options: Array<{ name: string; values: string[] }>;
}

/** undefined unless the product is `active` (drafts and archived products are not for visitors) */
export function productItem(product: ShopProduct, storefront: Storefront): SyncItem | undefined {
  if (product.status !== 'active') return undefined;
  const variants = byPosition(product.variants);
  const first = variants[0];
  const options = visibleOptions(product);
  const sourceData: ProductSourceData = {
    title: product.title,
    description: product.body_html ? htmlToText(product.body_html).trim() : '',
    vendor: product.vendor,
    productType: product.product_type,
    tags: splitTags(product.tags),
    price: first?.price ?? null,
    compareAtPrice: first?.compare_at_price ?? null,
    currency: storefront.currency,
    sku: first?.sku ?? null,
    inventory: inventory(variants),
    images: byPosition(product.images).map((image) => ({ url: image.src, alt: image.alt })),
    options,
  };

  return {
    sourceType: 'PRODUCT',
    externalId: String(product.id),
    data: {
      title: product.title,
      content: productContent(sourceData, priceLine(variants, storefront.currency)),
      url: `${storefront.url.replace(/\/+$/, '')}/products/${encodeURIComponent(product.handle)}`,
      metadata: {
        productId: product.id,
        handle: product.handle,
        productType: product.product_type,
        variantCount: variants.length,
        updatedAt: product.updated_at,
      },
      sourceData: { ...sourceData },
    },
  };
}

function productContent(data: ProductSourceData, price: string | undefined): string {
  const facts = [
    data.vendor && `Vendor: ${data.vendor}`,
    data.productType && `Type: ${data.productType}`,
    price,
    ...data.options.map((option) => `${option.name}: ${option.values.join(', ')}`),
    `Availability: ${data.inventory.inStock ? 'in stock' : 'out of stock'}`,
    data.tags.length > 0 && `Tags: ${data.tags.join(', ')}`,
  ].filter((line): line is string => typeof line === 'string' && line !== '');
  return [data.description, facts.join('\n')].filter(Boolean).join('\n\n');
}

/** The lowest price, marked "from" when the variants differ; the first variant's price stays in sourceData. */
function priceLine(variants: ShopVariant[], currency: string): string | undefined {
  const priced = variants.filter((variant) => variant.price !== '' && Number.isFinite(Number(variant.price)));
  const lowest = priced.reduce<ShopVariant | undefined>(
    (low, variant) => (low === undefined || Number(variant.price) < Number(low.price) ? variant : low),
    undefined,
  );
  if (!lowest) return undefined;
  const differ = priced.some((variant) => Number(variant.price) !== Number(lowest.price));
  return `Price: ${differ ? 'from ' : ''}${lowest.price} ${currency}`;
}

/**
 * Stock counts only where the shop tracks it, and oversold (negative) variants count as none. A product can
 * be bought when any variant is untracked, may be ordered when out of stock, or has some left.
 */
function inventory(variants: ShopVariant[]): ProductSourceData['inventory'] {
  const tracked = variants.filter((variant) => variant.inventory_management !== null);
  return {
    quantityAvailable: tracked.reduce((sum, variant) => sum + Math.max(0, variant.inventory_quantity), 0),
    inStock: variants.some(
      (variant) =>
        variant.inventory_management === null || variant.inventory_policy === 'continue' || variant.inventory_quantity > 0,
    ),
  };
}

/**
 * The options a visitor chooses between. A product without variants still has one option, `Title` with the
 * value `Default Title`, in shop APIs; that one is an artefact, not a choice, and is left out.
 */
function visibleOptions(product: ShopProduct): ProductSourceData['options'] {
  return byPosition(product.options)
    .filter((option) => option.values.length > 0)
    .filter((option) => !(option.name === 'Title' && option.values.length === 1 && option.values[0] === 'Default Title'))
    .map((option) => ({ name: option.name, values: [...option.values] }));
}

function splitTags(tags: string): string[] {
  return tags
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

function byPosition<T extends { position: number }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.position - b.position);
}
