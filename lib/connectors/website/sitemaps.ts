import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

/**
 * A sitemap's entries (sitemaps.org protocol): pages from a `<urlset>` or a plain-text sitemap, sitemaps from a
 * `<sitemapindex>`. Pure: the crawler fetches, this reads the bytes.
 */

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

export interface ParsedSitemap {
  kind: 'urlset' | 'index';
  /** Absolute http(s) locations, trimmed, as written (the crawler normalizes them), at most `maxUrls`. */
  urls: SitemapEntry[];
  /** Entries past `maxUrls`, ignored. */
  truncated: number;
}

export interface SitemapLimits {
  /** Entries kept; the protocol's own limit per file by default. */
  maxUrls?: number;
  /** Bytes read, after gunzipping; the protocol's own limit per file by default. */
  maxBytes?: number;
}

export const defaultMaxSitemapUrls = 50_000;
export const defaultMaxSitemapBytes = 50 * 1024 * 1024;

/** A sitemap that cannot be read, with a message naming it, for the crawl's report. */
export class SitemapError extends Error {
  override name = 'SitemapError';
}

const gzipMagic = [0x1f, 0x8b];

/**
 * The sitemap's bytes, gunzipped when they start with the gzip magic whatever the name or Content-Type said.
 * `maxOutputLength` makes zlib stop once `maxBytes` are out: a few kilobytes inflating to gigabytes cost no memory.
 */
function sitemapBytes(bytes: Uint8Array, sitemapUrl: string, maxBytes: number): Uint8Array {
  const gzipped = bytes[0] === gzipMagic[0] && bytes[1] === gzipMagic[1];
  if (!gzipped) {
    if (bytes.length > maxBytes) throw new SitemapError(`Sitemap ${sitemapUrl} is larger than ${maxBytes} bytes`);
    return bytes;
  }
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new SitemapError(`Sitemap ${sitemapUrl} inflates to more than ${maxBytes} bytes`);
    }
    throw new SitemapError(`Sitemap ${sitemapUrl} starts as gzip but does not gunzip: ${(error as Error).message}`);
  }
}

/** The sitemaps protocol admits absolute http(s) URLs only; relative or other locations are dropped. */
function isHttpUrl(loc: string): boolean {
  if (!URL.canParse(loc)) return false;
  const { protocol } = new URL(loc);
  return protocol === 'http:' || protocol === 'https:';
}

/** Keeps the first `maxUrls` entries with a usable location and counts the rest. */
class EntryCollector {
  readonly urls: SitemapEntry[] = [];
  truncated = 0;
  constructor(private readonly maxUrls: number) {}

  add(loc: string, lastmod: string | undefined): void {
    if (!isHttpUrl(loc)) return;
    if (this.urls.length >= this.maxUrls) this.truncated += 1;
    else this.urls.push(lastmod ? { loc, lastmod } : { loc });
  }
}

/** A tag's name without its namespace prefix (`sm:loc` → `loc`): sitemaps come with and without one. */
function localName(tag: string): string {
  return tag.slice(tag.indexOf(':') + 1).toLowerCase();
}

const rootKinds: Record<string, { kind: ParsedSitemap['kind']; entry: string }> = {
  urlset: { kind: 'urlset', entry: 'url' },
  sitemapindex: { kind: 'index', entry: 'sitemap' },
};

/**
 * An XML sitemap read with htmlparser2 in XML mode (entities and CDATA decoded). Only a `loc` or `lastmod` directly
 * inside an entry counts: extensions nest their own (`<image:image><image:loc>`) which must not replace the page's.
 */
function parseXmlSitemap(text: string, sitemapUrl: string, collector: EntryCollector): ParsedSitemap['kind'] {
  const open: string[] = [];
  let root: (typeof rootKinds)[string] | undefined;
  let rootName: string | undefined;
  let entry: { loc: string; lastmod: string } | undefined;
  const parser = new Parser(
    {
      onopentag(tag) {
        const name = localName(tag);
        if (rootName === undefined) {
          rootName = name;
          root = rootKinds[name];
        } else if (root && open.length === 1 && name === root.entry) entry = { loc: '', lastmod: '' };
        open.push(name);
      },
      ontext(data) {
        const name = open[2];
        if (entry && open.length === 3 && (name === 'loc' || name === 'lastmod')) entry[name] += data;
      },
      onclosetag() {
        open.pop();
        if (entry && open.length === 1) {
          collector.add(entry.loc.trim(), entry.lastmod.trim() || undefined);
          entry = undefined;
        }
      },
    },
    { xmlMode: true },
  );
  parser.end(text);
  if (root === undefined) {
    const what =
      rootName === 'html' ? 'an HTML page' : rootName ? `XML with a <${rootName.slice(0, 40)}> root` : 'XML without elements';
    throw new SitemapError(`Sitemap ${sitemapUrl} is ${what}, not a <urlset> or <sitemapindex>`);
  }
  return root.kind;
}

/**
 * A plain-text sitemap, which the protocol allows: one URL per line and nothing else. Blank lines are passed over;
 * any other line that is not a URL means this is not a sitemap (an error page, a binary file), and nothing is kept.
 */
function parseTextSitemap(text: string, sitemapUrl: string, collector: EntryCollector): void {
  for (const [index, rawLine] of text.split(/\r\n|\r|\n/).entries()) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (/\s/.test(line) || !URL.canParse(line)) {
      throw new SitemapError(`Sitemap ${sitemapUrl} is neither XML nor a list of URLs (line ${index + 1})`);
    }
    collector.add(line, undefined);
  }
}

/**
 * Reads a sitemap: XML (`<urlset>`, `<sitemapindex>`) or plain text, gzipped or not. Throws `SitemapError` for
 * anything else (an HTML page, garbage, a file past `maxBytes`), naming `sitemapUrl`.
 */
export function parseSitemap(bytes: Uint8Array, sitemapUrl: string, limits: SitemapLimits = {}): ParsedSitemap {
  const maxBytes = limits.maxBytes ?? defaultMaxSitemapBytes;
  const collector = new EntryCollector(limits.maxUrls ?? defaultMaxSitemapUrls);
  const text = new TextDecoder('utf-8').decode(sitemapBytes(bytes, sitemapUrl, maxBytes));
  if (text.includes('\u0000')) throw new SitemapError(`Sitemap ${sitemapUrl} is binary, not a sitemap`);
  const body = text.trimStart();
  if (body === '') throw new SitemapError(`Sitemap ${sitemapUrl} is empty`);
  let kind: ParsedSitemap['kind'] = 'urlset';
  if (body.startsWith('<')) kind = parseXmlSitemap(body, sitemapUrl, collector);
  else parseTextSitemap(body, sitemapUrl, collector);
  return { kind, urls: collector.urls, truncated: collector.truncated };
}
