// linkedom's documents are typed with the DOM's own types, which the Node-only tsconfig does not load.
/// <reference lib="dom" />
import { parseHTML } from 'linkedom';

// What may come before a page's first tag: a BOM, whitespace, comments, XHTML's XML declaration.
const TRIVIA = String.raw`\ufeff|\s+|<!--[\s\S]*?-->|<\?xml[^>]*>`;
const BEFORE_FIRST_TAG = new RegExp(`^(?:${TRIVIA})*`);
const BEFORE_ROOT = new RegExp(`^(?:${TRIVIA}|<!doctype[^>]*>)*`, 'i');
const PAGE_START = /^<(?:!doctype\s+html|html|head|body)(?=[\s>/])/i;
const HEAD_ELEMENTS = new Set(['TITLE', 'META', 'LINK', 'BASE']);

/**
 * Parses a page or a fragment into a document with `<html>`, `<head>` and `<body>`. linkedom builds the
 * tree as the markup is written: unlike a browser it does not add the `<html>`, `<head>` and `<body>`
 * HTML lets a page leave out (a bare fragment even ends up under its first element). Readability, the
 * fallbacks and the section splitter need a body, so the markup is put in an `<html>` when it has none,
 * and the `<head>` and `<body>` it lacks are made, the head's elements moved into the one, the rest into the other.
 */
export function parseHtmlDocument(html: string): Document {
  const markup = html.replace(BEFORE_ROOT, '');
  const { document } = parseHTML(/^<html[\s>]/i.test(markup) ? markup : `<html>${markup}</html>`);
  const root = document.documentElement;
  const head = childNamed(root, 'HEAD') ?? root.insertBefore(document.createElement('head'), root.firstChild);
  const body = childNamed(root, 'BODY') ?? root.appendChild(document.createElement('body'));
  const nodes = Array.from(root.childNodes).filter((node) => node !== head);
  const [before, after] = [nodes.slice(0, nodes.indexOf(body)), nodes.slice(nodes.indexOf(body) + 1)];
  head.append(...[...before, ...after].filter(isHeadElement));
  body.prepend(...before.filter((node) => !isHeadElement(node)));
  body.append(...after.filter((node) => !isHeadElement(node)));
  return document;
}

function childNamed(parent: Element, tagName: string): Element | undefined {
  return Array.from(parent.children).find((child) => child.tagName === tagName);
}

function isHeadElement(node: Node): boolean {
  return HEAD_ELEMENTS.has((node as Element).tagName);
}

/** True when the text starts as an HTML page does: a doctype, `<html>`, `<head>` or `<body>`, after any BOM, whitespace, comments and XML declaration. */
export function startsAsPage(text: string): boolean {
  return PAGE_START.test(text.replace(BEFORE_FIRST_TAG, ''));
}
