/*
 * Each heading's level and anchor are read from the page as written, before content extraction: the
 * extractor moves and rewraps elements (Readability hoists a wrapper's attributes onto its child, turns
 * h1 into h2, drops the divs DocBook puts around a heading), so what opens a section and what its id is
 * are only certain beforehand. Each heading is stamped with its record's index, an attribute that
 * travels with the element wherever the extractor moves or renames it.
 */

const STAMP = 'data-heading-record';

export interface HeadingRecord {
  /** 1 for h1 … 6 for h6, as the page has it. */
  level: number;
  anchor?: string;
}

export interface HeadingRecords {
  /** The selector of every stamped heading. */
  selector: string;
  /** The record of a stamped heading, undefined for any other element. */
  of(element: Element): HeadingRecord | undefined;
}

/** Records and stamps every h1–h6 of the document. */
export function recordHeadings(document: Document): HeadingRecords {
  const records = Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((heading, index) => {
    heading.setAttribute(STAMP, String(index));
    const anchor = anchorOf(heading);
    return { level: Number(heading.tagName.slice(1)), ...(anchor && { anchor }) };
  });
  return {
    selector: `[${STAMP}]`,
    of: (element) => records[Number(element.getAttribute(STAMP) ?? NaN)],
  };
}

/**
 * Where a heading can be linked to: its own id; an anchor inside it (`<h2><a id="x"></a>Title</h2>`,
 * `<a name>`, MediaWiki's `<span id>`); an empty `<a id|name>` just before it; or the id of the
 * section it opens (`<div class="section" id="x"><div class="titlepage"><h2>`, DocBook's layout).
 */
function anchorOf(heading: Element): string | undefined {
  return (
    heading.id ||
    idOf(heading.querySelector('[id], a[name]')) ||
    idOf(emptyAnchorBefore(heading)) ||
    idOfOpenedSection(heading) ||
    undefined
  );
}

function idOf(element: Element | null | undefined): string | undefined {
  return element ? element.id || element.getAttribute('name') || undefined : undefined;
}

function emptyAnchorBefore(heading: Element): Element | undefined {
  const previous = heading.previousElementSibling;
  if (previous?.tagName !== 'A' || hasText(previous)) return undefined;
  const siblings = nodesBefore(heading);
  return siblings.slice(siblings.indexOf(previous) + 1).some(hasText) ? undefined : previous;
}

/**
 * The id of the nearest section, article or div the heading opens: nothing with text comes before the
 * heading in it, and it holds no other heading of the heading's level or above (a page's
 * `<div id="main">` opened by its first h2 is not that h2's section).
 */
function idOfOpenedSection(heading: Element): string | undefined {
  const level = Number(heading.tagName.slice(1));
  const peers = Array.from({ length: level }, (_, i) => `h${i + 1}`).join(', ');
  for (let node: Element = heading, parent = node.parentElement; parent; node = parent, parent = node.parentElement) {
    if (!['SECTION', 'ARTICLE', 'DIV'].includes(parent.tagName) || nodesBefore(node).some(hasText)) return undefined;
    if (parent.querySelectorAll(peers).length > 1) return undefined;
    if (parent.id) return parent.id;
  }
  return undefined;
}

function nodesBefore(node: Node): Node[] {
  const siblings = Array.from(node.parentNode?.childNodes ?? []);
  return siblings.slice(0, siblings.indexOf(node as ChildNode));
}

// Comments and whitespace do not count; elements count when they hold text or an image.
function hasText(node: Node): boolean {
  if (node.nodeType === 8) return false;
  return !!node.textContent?.trim() || (node.nodeType === 1 && !!(node as Element).querySelector('img'));
}
