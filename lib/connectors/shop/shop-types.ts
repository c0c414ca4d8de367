/**
 * The JSON the shop admin API answers with (Shopify-REST-like, snake_case), as far as the connector reads it.
 * The API sends more fields than these; the ones listed are the ones we rely on.
 */

export interface ShopInfo {
  id: number;
  name: string;
  /** storefront host, e.g. northwind.shop.test */
  domain: string;
  currency: string;
}

export interface ShopProduct {
  id: number;
  title: string;
  body_html: string | null;
  vendor: string;
  product_type: string;
  handle: string;
  status: 'active' | 'draft' | 'archived';
  /** comma-and-space separated, as the shop APIs send them */
  tags: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  variants: ShopVariant[];
  options: ShopOption[];
  images: ShopImage[];
}

export interface ShopVariant {
  id: number;
  product_id: number;
  title: string;
  /** a decimal string such as "19.99", never a float */
  price: string;
  compare_at_price: string | null;
  sku: string | null;
  position: number;
  inventory_quantity: number;
  /** null: the shop does not track stock of this variant */
  inventory_management: string | null;
  /** `continue`: the variant can be ordered when out of stock */
  inventory_policy: 'deny' | 'continue';
  option1: string | null;
  option2: string | null;
  option3: string | null;
}

export interface ShopOption {
  id: number;
  product_id: number;
  name: string;
  position: number;
  values: string[];
}

export interface ShopImage {
  id: number;
  product_id: number;
  src: string;
  alt: string | null;
  position: number;
  width: number;
  height: number;
}
