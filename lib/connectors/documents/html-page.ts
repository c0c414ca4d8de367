import { languageTag } from './language.js';
import { plainLine } from './plain-text.js';

/** What a crawler needs of a page besides its text: read from the whole page, before content extraction removes any of it. */
export interface PageFacts {
  /** The `<title>`, whitespace collapsed, or null when there is none (or it is empty). */
  title: string | null;
  language?: string;
  links: string[];
  canonical?: string;
  robots: { noindex: boolean; nofollow: boolean };
}

// The robots meta tags that speak to us: everyone's, and our crawler's own.
const ROBOTS_NAMES = ['robots', 'kbassistantbot'];

/** Reads the page's title, language, links, canonical address and robots directives; `url` is where the page was found. */
export function readPageFacts(document: Document, url?: string): PageFacts {
  const base = resolve(document.querySelector('base[href]')?.getAttribute('href'), url) ?? url;
  const title = plainLine(document.head.querySelector('title')?.textContent ?? '');
  const language = languageTag(
    document.documentElement.getAttribute('lang') ?? document.documentElement.getAttribute('xml:lang'),
  );
  const canonical = resolve(document.querySelector('link[rel~="canonical" i][href]')?.getAttribute('href'), base);
  return {
    title: title || null,
    ...(language && { language }),
    links: followableLinks(document, base),
    ...(canonical && { canonical }),
    robots: robotsDirectives(document),
  };
}

/** The `a[href]` a crawler may follow: absolute http(s), without fragments, once each, in document order; rel=nofollow left out. */
function followableLinks(document: Document, base: string | undefined): string[] {
  const links = new Set<string>();
  for (const anchor of Array.from(document.querySelectorAll('a[href]'))) {
    if (relTokens(anchor).includes('nofollow')) continue;
    const href = resolve(anchor.getAttribute('href'), base);
    if (href) links.add(href.split('#')[0]!);
  }
  return [...links];
}

function robotsDirectives(document: Document): PageFacts['robots'] {
  const directives = Array.from(document.querySelectorAll('meta[name][content]'))
    .filter((meta) => ROBOTS_NAMES.includes(meta.getAttribute('name')!.trim().toLowerCase()))
    .flatMap((meta) => meta.getAttribute('content')!.toLowerCase().split(','))
    .map((directive) => directive.trim());
  // `none` is `noindex, nofollow`.
  return {
    noindex: directives.includes('noindex') || directives.includes('none'),
    nofollow: directives.includes('nofollow') || directives.includes('none'),
  };
}

function relTokens(element: Element): string[] {
  return (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
}

/** `href` made absolute against `base`, when that gives an http(s) URL. */
function resolve(href: string | null | undefined, base: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
