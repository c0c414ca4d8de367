import type { SyncItem } from '#connector-sdk/index.js';
import { decodeEntities, htmlToText } from '#knowledge/text/html.js';
import type { CmsEmbeddedTerm, CmsEntry, CmsKind } from './cms-types.js';

/*
 * One CMS entry → one ingestion item. Everything the CMS sends "rendered" is HTML (titles carry entities
 * such as `&#8217;`, term and author names are escaped too), so every text field goes through the HTML
 * converter: the assistant answers from words, not markup.
 */

const SOURCE_TYPES = { post: 'ARTICLE', page: 'PAGE' } as const;
const TYPE_OF_KIND: Record<CmsKind, CmsEntry['type']> = { posts: 'post', pages: 'page' };

/** `post-12` / `page-7`: ids are per type in the CMS */
export function cmsExternalId(kind: CmsKind | CmsEntry['type'], id: number): string {
  const type = kind === 'posts' || kind === 'pages' ? TYPE_OF_KIND[kind] : kind;
  return `${type}-${id}`;
}

/** The kind and id behind `cmsExternalId`'s output; undefined for any other string. */
export function parseCmsExternalId(externalId: string): { kind: CmsKind; id: number } | undefined {
  const match = /^(post|page)-([1-9]\d*)$/.exec(externalId);
  if (!match) return undefined;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? { kind: match[1] === 'post' ? 'posts' : 'pages', id } : undefined;
}

/** undefined unless published and not password-protected */
export function cmsItem(entry: CmsEntry): SyncItem | undefined {
  if (entry.status !== 'publish' || entry.content.protected) return undefined;
  const title = inlineText(entry.title.rendered) || entry.slug || cmsExternalId(entry.type, entry.id);
  const common = {
    title,
    excerpt: entry.excerpt.protected ? '' : htmlToText(entry.excerpt.rendered),
    author: authorName(entry),
  };
  const dates = { publishedAt: gmtToIso(entry.date_gmt), modifiedAt: gmtToIso(entry.modified_gmt), slug: entry.slug };
  const sourceData =
    entry.type === 'post'
      ? { ...common, ...categoriesAndTags(entry), ...dates }
      : { ...common, ...dates, parentId: entry.parent ? entry.parent : null };

  return {
    sourceType: SOURCE_TYPES[entry.type],
    externalId: cmsExternalId(entry.type, entry.id),
    data: {
      title,
      content: htmlToText(entry.content.rendered),
      url: entry.link,
      metadata: { cmsId: entry.id, type: entry.type, slug: entry.slug },
      sourceData,
    },
  };
}

/** the entry's modification time as ISO 8601 with Z */
export function modifiedAt(entry: CmsEntry): string {
  const iso = gmtToIso(entry.modified_gmt);
  if (iso === null) throw new TypeError(`CMS ${entry.type} ${entry.id} has an unreadable modified_gmt`);
  return iso;
}

/** WordPress' `2024-05-01T08:30:00` (UTC without a zone) → `2024-05-01T08:30:00.000Z`; null when unreadable. */
function gmtToIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(value);
  const time = Date.parse(hasZone ? value : `${value}Z`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** A rendered one-liner (title, name) as plain text on one line. */
function inlineText(rendered: string): string {
  return htmlToText(rendered).replace(/\s+/g, ' ').trim();
}

function authorName(entry: CmsEntry): string | null {
  // An author the CMS may not show is embedded as an error object without a name.
  const author = entry._embedded?.author?.find(({ id, name }) => id === entry.author && typeof name === 'string');
  return author ? decodeEntities(author.name) : null;
}

/** Names from the embedded terms, in the order the CMS lists them; ids without an embedded term are skipped. */
function categoriesAndTags(entry: CmsEntry): { category: string | null; categories: string[]; tags: string[] } {
  const terms = (entry._embedded?.['wp:term'] ?? []).flat();
  const names = (taxonomy: CmsEmbeddedTerm['taxonomy']) =>
    terms.filter((term) => term.taxonomy === taxonomy && typeof term.name === 'string').map((term) => decodeEntities(term.name));
  const categories = names('category');
  return { category: categories[0] ?? null, categories, tags: names('post_tag') };
}
