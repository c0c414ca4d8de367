import { mainContent } from './html-content.js';
import { recordHeadings } from './html-headings.js';
import { readPageFacts } from './html-page.js';
import { parseHtmlDocument } from './html-parse.js';
import { splitSections } from './html-sections.js';
import { flattenTableCells } from './html-tables.js';
import type { ExtractedDocument } from './types.js';

export interface HtmlDocument extends ExtractedDocument {
  /** Absolute http(s) URLs of `a[href]` (resolved against `url` and any `<base href>`), in document order, before any content extraction, without fragments, deduplicated. Links with rel=nofollow are left out. */
  links: string[];
  /** The `<link rel="canonical" href>` resolved against the page, when there is one. */
  canonical?: string;
  /** `<meta name="robots">` (and `name="kbassistantbot"`, case-insensitive) directives. */
  robots: { noindex: boolean; nofollow: boolean };
}

export interface HtmlOptions {
  /** Keep only the page's main content (a web page), or everything in its body (HTML we made from a Word or Markdown file). */
  mainContent: boolean;
  /** Where the page was found: relative links resolve against it. */
  url?: string;
}

/**
 * Reads a page: parsed once; its facts (links, canonical, robots, language, `<title>`) and its headings'
 * levels and anchors read first, from the page as written; then its content (the main content, or the
 * body), its table cells made one line each, split into sections. The title is the content's first h1,
 * else the `<title>` as it is (site name included), else null.
 */
export function readHtml(html: string, options: HtmlOptions): HtmlDocument {
  const document = parseHtmlDocument(html);
  const { title, ...facts } = readPageFacts(document, options.url);
  const records = recordHeadings(document);
  const content = options.mainContent ? mainContent(document) : document.body;
  flattenTableCells(content);
  const split = splitSections(content, records);
  return { kind: 'html', ...facts, title: split.title ?? title, sections: split.sections };
}

/** Title and sections of HTML: for the HTML a Word or Markdown file becomes, which is all content. */
export function htmlSections(
  html: string,
  options: Pick<HtmlOptions, 'mainContent'>,
): Pick<ExtractedDocument, 'title' | 'sections'> {
  const { title, sections } = readHtml(html, options);
  return { title, sections };
}
