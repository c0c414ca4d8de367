/**
 * A page's identity for the website crawler: one string per page however a site links to it, so the crawler fetches
 * it once and the knowledge base holds it once. Pure: no network, no configuration.
 */

/** Query parameters that only say where a visitor came from (analytics, ad clicks, mail campaigns): never content. */
const trackingParameters = new Set(['gclid', 'fbclid', 'msclkid', 'mc_cid', 'mc_eid', '_hsenc', '_hsmi']);

function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || trackingParameters.has(lower);
}

/** A query parameter's name as a server reads it (`+` is a space in a query), for matching and sorting only. */
function parameterName(pair: string): string {
  const raw = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** `%c3%a9` and `%C3%A9` are the same octets (RFC 3986 §6.2.2.1); WHATWG URL keeps whichever case it was given. */
function upperCaseEscapes(text: string): string {
  return text.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

/**
 * The query without tracking parameters, the rest sorted by name (a stable sort: `?a=2&a=1` keeps its order, which
 * a server may read as a list). The pairs keep the bytes WHATWG URL gave them: re-serialising through
 * URLSearchParams would turn `?print` into `?print=` and `%20` into `+`, another URL to some servers.
 */
function normalizedQuery(search: string): string {
  const pairs = search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !isTrackingParameter(parameterName(pair)));
  const sorted = pairs
    .map((pair) => ({ pair, name: parameterName(pair) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted.length === 0 ? '' : `?${upperCaseEscapes(sorted.map(({ pair }) => pair).join('&'))}`;
}

/**
 * The crawler's identity of a page, or undefined when `input` (resolved against `base`) is not an http(s) URL.
 *
 * WHATWG URL already lower-cases the scheme and host (IDN to punycode), drops default ports, resolves `.` and `..`
 * and percent-encodes what must be. On top: no fragment (the same document), no user:password (never sent on),
 * no tracking parameters, the query sorted by name, no empty `?`, `//` collapsed in the path, escapes in upper case.
 * The path's case and trailing slash stay as given: servers differ on both, so folding them could merge two pages.
 */
export function normalizeUrl(input: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.username = '';
  url.password = '';
  url.hash = '';
  url.pathname = upperCaseEscapes(url.pathname.replace(/\/{2,}/g, '/'));
  url.search = normalizedQuery(url.search);
  return url.href;
}

/**
 * A page's identity: its `<link rel="canonical">`, normalized, when that is in scope and on the page's own host
 * (host and port; the scheme may differ, as an http page naming its https twin does); otherwise the normalized page
 * URL. A canonical elsewhere is ignored so that one page cannot claim another site's (or another connector's) place.
 * `canonicalHref` may be relative: it is resolved against the page. A page URL that is not http(s) comes back as given.
 */
export function canonicalUrl(pageUrl: string, canonicalHref: string | undefined, inScope: (url: string) => boolean): string {
  const page = normalizeUrl(pageUrl);
  if (page === undefined) return pageUrl;
  const canonical = canonicalHref === undefined ? undefined : normalizeUrl(canonicalHref, page);
  if (canonical === undefined) return page;
  return new URL(canonical).host === new URL(page).host && inScope(canonical) ? canonical : page;
}

/** The path's extension in lower case (`/a/Report.PDF` → `pdf`), or undefined; the query never counts. */
function pathExtension(url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = lastSegment.lastIndexOf('.');
  return dot === -1 || dot === lastSegment.length - 1 ? undefined : lastSegment.slice(dot + 1).toLowerCase();
}

/** A link to a document the connector ingests as a file rather than as a page, by the path's extension. */
export function isDocumentLink(url: string): 'pdf' | 'docx' | undefined {
  const extension = pathExtension(url);
  return extension === 'pdf' || extension === 'docx' ? extension : undefined;
}

/**
 * Extensions a crawler should not fetch as pages: downloading them costs bandwidth and the site's patience for no
 * text. Not exhaustive (a server may serve anything at any path; the response's Content-Type has the last word):
 * images, audio and video, archives and installers, fonts, style sheets and scripts, feeds and data, and office
 * formats the connector does not read. `.pdf` and `.docx` are not here: see `isDocumentLink`.
 */
const nonPageExtensions = new Set([
  ...['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'svg', 'ico', 'bmp', 'tif', 'tiff', 'heic', 'psd'],
  ...['mp3', 'm4a', 'wav', 'ogg', 'oga', 'flac', 'aac', 'opus', 'mid', 'midi'],
  ...['mp4', 'm4v', 'webm', 'ogv', 'mov', 'avi', 'mkv', 'wmv', 'flv', 'mpg', 'mpeg', '3gp'],
  ...['zip', 'gz', 'tgz', 'tar', 'bz2', 'xz', 'zst', '7z', 'rar', 'dmg', 'iso', 'exe', 'msi', 'deb', 'rpm', 'apk', 'jar'],
  ...['woff', 'woff2', 'ttf', 'otf', 'eot'],
  ...['css', 'js', 'mjs', 'map', 'wasm'],
  ...['json', 'xml', 'rss', 'atom', 'csv', 'ics', 'vcf'],
  ...['doc', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'epub'],
]);

/** Whether the URL's path ends in an extension from `nonPageExtensions` (compared in lower case). */
export function looksLikeNonPage(url: string): boolean {
  const extension = pathExtension(url);
  return extension !== undefined && nonPageExtensions.has(extension);
}
