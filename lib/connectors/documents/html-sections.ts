import { randomUUID } from 'node:crypto';
import { normalizeText, normalizeTitle } from '#knowledge/text/normalize.js';
import type { HeadingRecords } from './html-headings.js';
import type { DocumentSection } from './types.js';

/**
 * Splits content into sections at its headings of the split level: h2, and the h1s too when there are
 * several (the first h1 is the document's title, never a section); h3 when there is no h2. Deeper
 * headings stay in their section's text as lines. What comes before the first split is the lead
 * section (heading null, linked to by the title heading's anchor). Sections without text are left out.
 *
 * The content is cut at the split headings wherever they are nested (DocBook wraps each in three
 * divs): each is replaced by a marker comment and the content's HTML is cut at the markers. The pieces
 * may open or close tags they do not hold; the normalizer's parser, like a browser's, closes or
 * ignores those.
 */
export function splitSections(content: Element, records: HeadingRecords): { title: string | null; sections: DocumentSection[] } {
  const headings = Array.from(content.querySelectorAll(records.selector))
    .map((element) => ({ element, ...records.of(element)!, text: normalizeTitle(element.innerHTML) }))
    .filter((heading) => heading.text !== '');
  const h1s = headings.filter((heading) => heading.level === 1);
  const title = h1s[0];
  const splitLevels = [...(h1s.length > 1 ? [1] : []), headings.some((heading) => heading.level === 2) ? 2 : 3];
  const splits = headings.filter((heading) => heading !== title && splitLevels.includes(heading.level));

  title?.element.remove();
  const marker = `section-${randomUUID()}`;
  for (const { element } of splits) element.replaceWith(content.ownerDocument.createComment(marker));
  const [lead = '', ...bodies] = content.innerHTML.split(`<!--${marker}-->`);
  // The lead is what the title heading opens: linked to by its anchor.
  const sections = [
    sectionOf(null, lead, title?.anchor),
    ...splits.map((heading, i) => sectionOf(heading.text, bodies[i] ?? '', heading.anchor)),
  ];
  return { title: title?.text ?? null, sections: sections.filter((section) => section.text !== '') };
}

function sectionOf(heading: string | null, html: string, anchor: string | undefined): DocumentSection {
  // In a div, the piece is HTML to the normalizer even when it holds no tag of its own.
  return { heading, ...(anchor && { anchor }), text: normalizeText(`<div>${html}</div>`) };
}
