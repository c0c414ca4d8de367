import { OutboundError, type OutboundFile, type OutboundFiles } from '#platform/outbound/outbound-http.js';
import type { DocumentReader } from '../documents/document-reader.js';
import { DocumentError } from '../documents/errors.js';
import type { DocumentLimits } from '../documents/limits.js';
import type { ExtractedDocument } from '../documents/types.js';
import { getPatiently, notNowStatuses, type Patience } from '../retrying-get.js';
import type { PageMemory } from './crawl-state.js';
import { decodeHtml } from './decode-html.js';
import { canonicalUrl, normalizeUrl } from './urls.js';
import { crawlerUserAgent } from './user-agent.js';

/** What came of asking for one page. */
export type PageOutcome =
  /** 304: as the last crawl read it. */
  | { kind: 'unchanged' }
  | {
      kind: 'read';
      /** Where the page was read, after redirects within the scope. */
      url: string;
      /** Its identity: the canonical URL it declares when that is within the scope, else `url`. */
      canonical: string;
      document: ExtractedDocument;
      /** Its links within the scope, normalized (none when the page asks not to be followed). */
      links: string[];
      /** The page asks not to be indexed (`<meta name="robots" content="noindex">`): its links still count. */
      noindex: boolean;
      etag?: string;
      lastModified?: string;
    }
  /** 404 or 410: the page is gone, and its items go with it. */
  | { kind: 'gone'; status: number }
  /** Redirected out of the scope (another host, an excluded path): not followed. */
  | { kind: 'out_of_scope'; location: string }
  /** An answer that is not a page or a document (an image, a feed, a download). */
  | { kind: 'not_a_page'; contentType: string }
  /**
   * No page to read. `transient`: the site may answer next time (no answer, 429, 5xx): the page's
   * items are kept. Otherwise (401, 403, a document that cannot be read) they are not.
   */
  | { kind: 'failed'; reason: string; message: string; transient: boolean };

export interface PageFetchOptions {
  /** The guarded way out, asked for bytes; its waits for "not now" answers bounded by the activity. */
  patience: Patience & { http: OutboundFiles };
  inScope: (url: string) => boolean;
  /** Linked PDFs and Word files are read under the same limits as uploaded files, on the documents' thread. */
  documentLimits: DocumentLimits;
  readDocument: DocumentReader['read'];
  /** Pages are read on the documents' thread too (Readability takes tens of milliseconds a page). */
  readPage: DocumentReader['readPage'];
}

const htmlTypes = new Set(['text/html', 'application/xhtml+xml']);
const documentTypes = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  // Servers often send documents as bytes: the bytes then say what they are.
  'application/octet-stream',
]);
const accept =
  'text/html,application/xhtml+xml;q=0.9,application/pdf;q=0.8,application/vnd.openxmlformats-officedocument.wordprocessingml.document;q=0.8,*/*;q=0.1';

/**
 * Asks for a page the way a polite crawler does: under our user agent, conditionally when an earlier
 * crawl kept its validators (so an unchanged page costs a 304 and nothing else), following redirects
 * only within the scope, waiting out "not now" answers a few times within the activity's budget. Any
 * answer (a page or a document: its type is known only once it answers) is read up to the documents'
 * byte limit.
 */
export async function fetchPage(url: string, memory: PageMemory | undefined, options: PageFetchOptions): Promise<PageOutcome> {
  const { patience, inScope } = options;
  const headers: Record<string, string> = { 'user-agent': crawlerUserAgent, accept };
  if (memory?.etag) headers['if-none-match'] = memory.etag;
  if (memory?.lastModified) headers['if-modified-since'] = memory.lastModified;
  // Asked conditionally, fetch would add `Cache-Control: no-cache` (the Fetch standard's no-store mode),
  // which tells many servers to answer in full: ours says a stored copy is fine once validated.
  if (memory?.etag || memory?.lastModified) headers['cache-control'] = 'max-age=0';
  const getBytes = (address: string, init: Parameters<OutboundFiles['getBytes']>[1]) =>
    patience.http.getBytes(address, { ...init, maxBytes: options.documentLimits.maxBytes });
  const last = await getPatiently<OutboundFile>(url, headers, { maxRetries: 2, ...patience }, getBytes, {
    followRedirect: (next) => inScope(normalizeUrl(next.href) ?? next.href),
  });
  if (!last.answer) return noAnswer(last.error);
  const answer = last.answer;
  const { status } = answer;
  if (status === 304) {
    return memory
      ? { kind: 'unchanged' }
      : failed(`http_304`, 'answered 304 Not Modified to a request that was not conditional', false);
  }
  if (status >= 300 && status < 400) {
    return { kind: 'out_of_scope', location: answer.headers.get('location') ?? '' };
  }
  if (status === 404 || status === 410) return { kind: 'gone', status };
  if (status < 200 || status >= 300) {
    return failed(`http_${status}`, `answered ${status} ${answer.statusText}`.trim(), notNowStatuses.has(status));
  }
  return readAnswer(answer, options);
}

async function readAnswer(
  answer: OutboundFile,
  { inScope, readDocument, readPage, documentLimits }: PageFetchOptions,
): Promise<PageOutcome> {
  const url = normalizeUrl(answer.url) ?? answer.url;
  const contentType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const validators = {
    ...optional('etag', answer.headers.get('etag')),
    ...optional('lastModified', answer.headers.get('last-modified')),
  };
  if (htmlTypes.has(contentType) || contentType === '') {
    const html = await readPage(decodeHtml(answer.bytes, answer.headers.get('content-type')), url);
    const links = html.robots.nofollow
      ? []
      : [...new Set(html.links.flatMap((link) => normalizeUrl(link) ?? []).filter(inScope))];
    return {
      kind: 'read',
      url,
      canonical: canonicalUrl(url, html.canonical, inScope),
      document: html,
      links,
      noindex: html.robots.noindex,
      ...validators,
    };
  }
  if (!documentTypes.has(contentType)) return { kind: 'not_a_page', contentType };
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
    const document = await readDocument(answer.bytes, { name, contentType, limits: documentLimits });
    return { kind: 'read', url, canonical: url, document, links: [], noindex: false, ...validators };
  } catch (error) {
    if (error instanceof DocumentError) return failed(`document_${error.code}`, error.message, false);
    throw error;
  }
}

/** No answer at all: the address rules refused it (never retried), or the site did not answer in time. */
function noAnswer(error: unknown): PageOutcome {
  if (error instanceof OutboundError) return failed(error.code, error.message, error.retryable);
  throw error;
}

const failed = (reason: string, message: string, transient: boolean): PageOutcome => ({
  kind: 'failed',
  reason,
  message,
  transient,
});

const optional = <K extends string>(key: K, value: string | null) => (value ? ({ [key]: value } as Record<K, string>) : {});
