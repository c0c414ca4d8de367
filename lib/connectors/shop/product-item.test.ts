import test from 'ava';
import { productItem, type ProductSourceData, type Storefront } from './product-item.js';
import type { ShopProduct, ShopVariant } from './shop-types.js';

const storefront: Storefront = { url: 'https://northwind.shop.test', currency: 'EUR' };

function variant(position: number, fields: Partial<ShopVariant> = {}): ShopVariant {
  return {
    id: 100 + position,
    product_id: 1,
    title: `V${position}`,
    price: '19.99',
    compare_at_price: null,
    sku: `SKU-${position}`,
    position,
    inventory_quantity: 5,
    inventory_management: 'shopify',
    inventory_policy: 'deny',
    option1: `V${position}`,
    option2: null,
    option3: null,
    ...fields,
  };
}

function product(fields: Partial<ShopProduct> = {}): ShopProduct {
  return {
    id: 7_500_000_001,
    title: 'Summit Tent',
    body_html: '<p>A <strong>two-person</strong> tent.</p><ul><li>Weighs 1.6&nbsp;kg</li></ul>',
    vendor: 'Northwind Outfitters',
    product_type: 'Tents',
    handle: 'summit-tent',
    status: 'active',
    tags: 'outdoor, camping',
    created_at: '2025-01-15T09:00:00+00:00',
    updated_at: '2025-02-01T10:30:00+00:00',
    published_at: '2025-01-15T09:00:00+00:00',
    variants: [variant(1)],
    options: [{ id: 11, product_id: 1, name: 'Title', position: 1, values: ['Default Title'] }],
    images: [],
    ...fields,
  };
}

function itemOf(shopProduct: ShopProduct) {
  const item = productItem(shopProduct, storefront);
  if (!item) throw new Error('expected an item');
  return { item, sourceData: item.data.sourceData as unknown as ProductSourceData, content: item.data.content };
}

test('identity, url and metadata of the item', (t) => {
  const { item } = itemOf(product({ variants: [variant(1), variant(2)] }));
  t.is(item.sourceType, 'PRODUCT');
  t.is(item.externalId, '7500000001');
  t.is(item.data.title, 'Summit Tent');
  t.is(item.data.url, 'https://northwind.shop.test/products/summit-tent');
  t.deepEqual(item.data.metadata, {
    productId: 7_500_000_001,
    handle: 'summit-tent',
    productType: 'Tents',
    variantCount: 2,
    updatedAt: '2025-02-01T10:30:00+00:00',
  });
  t.is(item.data.hash, undefined, 'the SDK computes the hash');
});

test('drafts and archived products are not items', (t) => {
  t.is(productItem(product({ status: 'draft' }), storefront), undefined);
  t.is(productItem(product({ status: 'archived' }), storefront), undefined);
});

test('price, compare-at price and sku come from the first variant by position, whatever the array order', (t) => {
  const { sourceData } = itemOf(
    product({
      variants: [
        variant(2, { price: '9.99', sku: 'SECOND' }),
        variant(1, { price: '24.50', compare_at_price: '29.00', sku: 'FIRST' }),
      ],
    }),
  );
  t.is(sourceData.price, '24.50');
  t.is(sourceData.compareAtPrice, '29.00');
  t.is(sourceData.sku, 'FIRST');
  t.is(sourceData.currency, 'EUR');
});

test('the description has its HTML removed; tags are split, trimmed and empties dropped', (t) => {
  const { sourceData, content } = itemOf(product({ tags: ' outdoor,camping , ,  new-in ,' }));
  t.is(sourceData.description, 'A two-person tent.\n\n- Weighs 1.6\u00a0kg');
  t.false(content.includes('<'));
  t.true(content.startsWith('A two-person tent.'));
  t.deepEqual(sourceData.tags, ['outdoor', 'camping', 'new-in']);
  t.regex(content, /^Tags: outdoor, camping, new-in$/m);
});

test('quantity available sums tracked variants and counts oversold ones as none', (t) => {
  const { sourceData } = itemOf(
    product({
      variants: [
        variant(1, { inventory_quantity: 4 }),
        variant(2, { inventory_quantity: -3 }),
        variant(3, { inventory_quantity: 6 }),
        variant(4, { inventory_quantity: 50, inventory_management: null }),
      ],
    }),
  );
  t.deepEqual(sourceData.inventory, { inStock: true, quantityAvailable: 10 });
});

test('in stock when a variant is untracked or may be oversold, out of stock otherwise', (t) => {
  const soldOut = { inventory_quantity: 0 };
  const untracked = itemOf(product({ variants: [variant(1, soldOut), variant(2, { ...soldOut, inventory_management: null })] }));
  t.deepEqual(untracked.sourceData.inventory, { inStock: true, quantityAvailable: 0 });

  const orderable = itemOf(product({ variants: [variant(1, { inventory_quantity: -1, inventory_policy: 'continue' })] }));
  t.true(orderable.sourceData.inventory.inStock);

  const none = itemOf(product({ variants: [variant(1, soldOut), variant(2, { inventory_quantity: -2 })] }));
  t.deepEqual(none.sourceData.inventory, { inStock: false, quantityAvailable: 0 });
  t.regex(none.content, /^Availability: out of stock$/m);
});

test('images are listed by position', (t) => {
  const image = (id: number, position: number, alt: string | null) => ({
    id,
    product_id: 1,
    src: `https://cdn.shop.test/${id}.jpg`,
    alt,
    position,
    width: 800,
    height: 600,
  });
  const { sourceData } = itemOf(product({ images: [image(3, 3, null), image(1, 1, 'Front'), image(2, 2, 'Side')] }));
  t.deepEqual(sourceData.images, [
    { url: 'https://cdn.shop.test/1.jpg', alt: 'Front' },
    { url: 'https://cdn.shop.test/2.jpg', alt: 'Side' },
    { url: 'https://cdn.shop.test/3.jpg', alt: null },
  ]);
});

test('content lists vendor, type, price, options, availability and tags as lines', (t) => {
  const { content, sourceData } = itemOf(
    product({
      variants: [variant(1, { option1: 'S' }), variant(2, { option1: 'M' })],
      options: [
        { id: 12, product_id: 1, name: 'Color', position: 2, values: ['Olive', 'Sand'] },
        { id: 11, product_id: 1, name: 'Size', position: 1, values: ['S', 'M'] },
      ],
    }),
  );
  t.is(
    content,
    [
      'A two-person tent.',
      '',
      '- Weighs 1.6\u00a0kg',
      '',
      'Vendor: Northwind Outfitters',
      'Type: Tents',
      'Price: 19.99 EUR',
      'Size: S, M',
      'Color: Olive, Sand',
      'Availability: in stock',
      'Tags: outdoor, camping',
    ].join('\n'),
  );
  t.deepEqual(sourceData.options, [
    { name: 'Size', values: ['S', 'M'] },
    { name: 'Color', values: ['Olive', 'Sand'] },
  ]);
});

test('differing prices show "from" the lowest, while sourceData keeps the first variant price', (t) => {
  const { content, sourceData } = itemOf(
    product({ variants: [variant(1, { price: '14.00' }), variant(2, { price: '9.99' }), variant(3, { price: '19.00' })] }),
  );
  t.regex(content, /^Price: from 9\.99 EUR$/m);
  t.is(sourceData.price, '14.00');
});

test('prices that differ only in notation are one price', (t) => {
  const { content } = itemOf(product({ variants: [variant(1, { price: '10.0' }), variant(2, { price: '10.00' })] }));
  t.regex(content, /^Price: 10\.0 EUR$/m);
});

test('the default "Title" option of a single-variant product is not listed', (t) => {
  const { content, sourceData } = itemOf(product());
  t.deepEqual(sourceData.options, []);
  t.false(content.includes('Title:'));
});

test('a product with no description, vendor, type, variants or tags still says whether it can be bought', (t) => {
  const { content, sourceData } = itemOf(
    product({ body_html: null, vendor: '', product_type: '', tags: '', variants: [], options: [] }),
  );
  t.is(content, 'Availability: out of stock');
  t.is(sourceData.price, null);
  t.is(sourceData.sku, null);
  t.is(sourceData.description, '');
});

test('content does not change when only stock counts change, so sales do not force re-embedding', (t) => {
  const before = itemOf(product({ variants: [variant(1, { inventory_quantity: 12 }), variant(2, { inventory_quantity: 3 })] }));
  const after = itemOf(product({ variants: [variant(1, { inventory_quantity: 7 }), variant(2, { inventory_quantity: 1 })] }));
  t.is(after.content, before.content);
  t.not(after.sourceData.inventory.quantityAvailable, before.sourceData.inventory.quantityAvailable);
});
