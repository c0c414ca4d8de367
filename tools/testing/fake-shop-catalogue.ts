/**
 * The fake shop's generated catalogue: deterministic, varied sample products for `startFakeShop`.
 *
 * The i-th product cycles through kinds, names, vendors, tags, variant counts, stock situations and image
 * counts at different periods, so any run of a few products mixes them all. A test's partial product
 * replaces the generated fields it names.
 */
import type { ShopImage, ShopOption, ShopProduct, ShopVariant } from '#connectors/shop/shop-types.js';

/** The last id handed out of each kind; ids only grow, as in the real API. */
export interface ProductIds {
  product: number;
  variant: number;
  option: number;
  image: number;
}

/** Where a new shop's ids start: large, like real ones, and different per kind. */
export function firstProductIds(): ProductIds {
  return { product: 7_500_000_000, variant: 44_000_000_000, option: 9_100_000_000, image: 3_300_000_000 };
}

/** Timestamps as shop APIs write them: seconds, with an explicit offset. */
export function shopTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

const kinds = [
  {
    noun: 'Trail Shoes',
    type: 'Footwear',
    option: 'Size',
    values: ['40', '42', '44'],
    price: 89,
    feature: 'A grippy outsole for wet rock and mud.',
  },
  {
    noun: 'Tent',
    type: 'Tents',
    option: 'Color',
    values: ['Olive', 'Sand', 'Slate'],
    price: 349,
    feature: 'Pitches in five minutes with colour-coded poles.',
  },
  {
    noun: 'Base Layer',
    type: 'Apparel',
    option: 'Size',
    values: ['S', 'M', 'L'],
    price: 59.5,
    feature: 'Merino wool that stays fresh for days.',
  },
  {
    noun: 'Bottle',
    type: 'Accessories',
    option: 'Capacity',
    values: ['500 ml', '750 ml', '1 l'],
    price: 24.9,
    feature: 'Keeps drinks cold for 24 hours & hot for 12.',
  },
  {
    noun: 'Headlamp',
    type: 'Lighting',
    option: 'Color',
    values: ['Black', 'Orange', 'Red'],
    price: 39,
    feature: 'Up to 400 lumens, rechargeable over USB-C.',
  },
];
const names = ['Summit', 'Coastal', 'Forest', 'Glacier', 'Canyon', 'Meadow', 'Aurora'];
const vendors = ['Northwind Outfitters', 'Alpine Gear Co.', 'Harbor & Field', 'Lumen Works'];
const tagSets = ['outdoor, camping', 'new, hiking', 'sale', '', 'gift, outdoor, bestseller'];
/** In stock, sold out, untracked, oversold but still orderable, nearly sold out. */
const stock: Array<Pick<ShopVariant, 'inventory_management' | 'inventory_quantity' | 'inventory_policy'>> = [
  { inventory_management: 'shopify', inventory_quantity: 12, inventory_policy: 'deny' },
  { inventory_management: 'shopify', inventory_quantity: 0, inventory_policy: 'deny' },
  { inventory_management: null, inventory_quantity: 0, inventory_policy: 'deny' },
  { inventory_management: 'shopify', inventory_quantity: -2, inventory_policy: 'continue' },
  { inventory_management: 'shopify', inventory_quantity: 3, inventory_policy: 'deny' },
];

/** The i-th generated product, with `partial`'s fields in place of the generated ones; takes its ids from `ids`. */
export function generateProduct(i: number, ids: ProductIds, partial: Partial<ShopProduct>): ShopProduct {
  const id = partial.id ?? ids.product + 1;
  ids.product = Math.max(ids.product, id);
  const kind = kinds[i % kinds.length]!;
  const round = Math.floor(i / (kinds.length * names.length));
  const title = partial.title ?? `${names[i % names.length]} ${kind.noun}${round > 0 ? ` ${round + 1}` : ''}`;
  const handle = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const vendor = vendors[i % vendors.length]!;
  const createdAt = shopTime(Date.UTC(2025, 0, 15, 9) + i * 3_600_000);
  const count = (i % 3) + 1;
  const values = count === 1 ? ['Default Title'] : kind.values.slice(0, count);

  const variants = values.map((value, j): ShopVariant => ({
    id: ++ids.variant,
    product_id: id,
    title: value,
    price: (kind.price + (i % 4 === 0 ? 5 * j : 0)).toFixed(2),
    compare_at_price: i % 5 === 2 ? (kind.price * 1.2).toFixed(2) : null,
    sku: i % 6 === 5 ? null : `NW-${id}-${j + 1}`,
    position: j + 1,
    ...stock[(i + j) % stock.length]!,
    option1: value,
    option2: null,
    option3: null,
  }));
  const options: ShopOption[] = [
    { id: ++ids.option, product_id: id, name: count === 1 ? 'Title' : kind.option, position: 1, values },
  ];
  const images = Array.from({ length: i % 4 }, (_, j): ShopImage => ({
    id: ++ids.image,
    product_id: id,
    src: `https://cdn.shop.test/files/${handle}-${j + 1}.jpg`,
    alt: j === 2 ? null : `${title}, view ${j + 1}`,
    position: j + 1,
    width: 2048,
    height: 2048,
  }));
  const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  const generated: ShopProduct = {
    id,
    title,
    body_html:
      i % 7 === 6
        ? null
        : `<p>The <strong>${escape(title)}</strong> by ${escape(vendor)}.</p><ul><li>${escape(kind.feature)}</li><li>Free returns within 30 days.</li></ul>`,
    vendor,
    product_type: kind.type,
    handle,
    status: 'active',
    tags: tagSets[i % tagSets.length]!,
    created_at: createdAt,
    updated_at: createdAt,
    published_at: partial.status && partial.status !== 'active' ? null : createdAt,
    variants,
    options,
    images,
  };
  const product = { ...generated, ...structuredClone(partial), id };
  // Children given by the test belong to this product whatever ids they were written with.
  product.variants = product.variants.map((variant) => ({ ...variant, product_id: id }));
  product.options = product.options.map((option) => ({ ...option, product_id: id }));
  product.images = product.images.map((image) => ({ ...image, product_id: id }));
  return product;
}
