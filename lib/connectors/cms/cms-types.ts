/**
 * The JSON a WordPress-like CMS answers at `/wp-json/wp/v2/posts` and `/pages` (as far as the connector
 * reads it). Fields are named and formatted as the CMS sends them; mapping to our items is cms-item.ts's job.
 */

import type { CmsKind } from '#workflows/connectors/types.js';

export type { CmsKind };

export type CmsStatus = 'publish' | 'draft' | 'private' | 'pending' | 'future';

/** A user or a term as `_embed` inlines them (the CMS sends more fields; these are the ones we read). */
export interface CmsEmbeddedAuthor {
  id: number;
  name: string;
  slug: string;
}

export interface CmsEmbeddedTerm {
  id: number;
  name: string;
  slug: string;
  taxonomy: 'category' | 'post_tag';
}

export interface CmsEntry {
  id: number;
  type: 'post' | 'page';
  slug: string;
  status: CmsStatus;
  /** The public permalink. */
  link: string;
  /** WordPress style: 'YYYY-MM-DDTHH:mm:ss', UTC, no zone suffix */
  date_gmt: string;
  modified_gmt: string;
  title: { rendered: string };
  /** `protected` is true for password-protected entries; the CMS then sends an empty `rendered`. */
  content: { rendered: string; protected: boolean };
  excerpt: { rendered: string; protected: boolean };
  /** User id; its name is only in `_embedded.author`. */
  author: number;
  /** Posts only: term ids, whose names are only in `_embedded['wp:term']`. */
  categories?: number[];
  tags?: number[];
  /** Pages only: the parent page's id, 0 at the top level. */
  parent?: number;
  /** Present when the request asked for `_embed`; `wp:term` holds one array per taxonomy (categories, tags). */
  _embedded?: {
    author?: CmsEmbeddedAuthor[];
    'wp:term'?: CmsEmbeddedTerm[][];
  };
}

/** The body of every error answer: `{"code":"rest_invalid_param","message":"…","data":{"status":400,…}}`. */
export interface CmsErrorBody {
  code: string;
  message: string;
  data?: { status?: number; params?: Record<string, string>; [key: string]: unknown };
}
