import { createHash } from 'node:crypto';
import type { SyncItem } from '#connector-sdk/index.js';
import type { ExtractedDocument } from './documents/types.js';

/** The longest `externalId` the ingestion API takes. */
const maxExternalIdChars = 500;

export interface DocumentIdentity {
  /** What the document's items are known by: a page's canonical URL, an uploaded file's id. */
  id: string;
  /** Its title when it has none of its own (a file's name, a page's address). */
  fallbackTitle: string;
  /** A page's address: each item links to it, at the section's anchor where there is one. */
  url?: string;
  /** Kept in each item's `sourceData` (the site, the file's name and kind). */
  sourceData?: Record<string, unknown>;
}

/**
 * A document's items: one per section, so that each chunk carries its section's heading (in the
 * item's title, "Page — Section") and each citation links to the section (the page's URL with the
 * heading's anchor). The first section is known by the document's own id, each further one by the id
 * and its anchor (`#install`) or, without one, its place (`#section-3`); a PDF's sections each by
 * page (`#page-7`), whose title says the page. An id too long for the API is the SHA-256 of the document's id instead.
 */
export function sectionItems(document: ExtractedDocument, identity: DocumentIdentity): SyncItem[] {
  const title = document.title?.trim() || identity.fallbackTitle;
  const base = identity.id.length + 40 > maxExternalIdChars ? `sha256-${sha256(identity.id)}` : identity.id;
  const used = new Set<string>();
  return document.sections.map((section, index) => {
    const fragment = index === 0 && section.page === undefined ? '' : uniqueFragment(fragmentOf(section, index), used);
    const heading = section.heading ? ` — ${section.heading}` : '';
    const page = section.page === undefined ? '' : `${section.heading ? ',' : ' —'} page ${section.page}`;
    return {
      sourceType: 'PAGE',
      externalId: `${base}${fragment}`.slice(0, maxExternalIdChars),
      data: {
        title: `${title}${heading}${page}`,
        content: section.text,
        ...(identity.url ? { url: linkTo(identity.url, section) } : {}),
        sourceData: {
          ...identity.sourceData,
          ...(section.heading ? { section: section.heading } : {}),
          ...(section.page === undefined ? {} : { page: section.page }),
          ...(document.language ? { language: document.language } : {}),
        },
      },
    };
  });
}

/** A section's address: a PDF's page (`#page=7` opens it there in browsers), a heading's anchor, or the document. */
function linkTo(url: string, section: ExtractedDocument['sections'][number]): string {
  if (section.page !== undefined) return `${url}#page=${section.page}`;
  return section.anchor ? `${url}#${section.anchor}` : url;
}

function fragmentOf(section: ExtractedDocument['sections'][number], index: number): string {
  if (section.page !== undefined) return `#page-${section.page}`;
  return section.anchor ? `#${section.anchor.slice(0, 200)}` : `#section-${index + 1}`;
}

/** Two sections with one anchor (a page that repeats an id) must not be one item. */
function uniqueFragment(fragment: string, used: Set<string>): string {
  let unique = fragment;
  for (let n = 2; used.has(unique); n += 1) unique = `${fragment}-${n}`;
  used.add(unique);
  return unique;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
