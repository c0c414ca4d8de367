import { Readability } from '@mozilla/readability';

// Where a page's content is when Readability finds none, most specific first.
const CONTENT_CONTAINERS = ['main', '[role="main"]', 'article'];
// What a page's body holds besides its content, dropped when the body is all there is.
const CHROME = 'nav, header, footer, aside, script, style, form';
// What no visitor sees (Readability leaves it out too).
const HIDDEN = '[hidden], [aria-hidden="true"]';

/**
 * The page's main content, without its navigation, header, footer, cookie banner or scripts: what
 * Readability keeps of a copy of the page (it rewrites the document it reads; the caller still needs
 * the page as written). When Readability finds nothing (a page whose text is all hidden, say):
 * `<main>`, `[role=main]` or `<article>`, else the body without its chrome; hidden elements dropped.
 */
export function mainContent(document: Document): Element {
  const copy = document.cloneNode(true) as Document;
  keepH1sFromReadability(copy);
  const article = new Readability<Element>(copy, { serializer: (node) => node as Element }).parse();
  if (article?.content?.textContent?.trim()) return article.content;
  const container = CONTENT_CONTAINERS.map((selector) => document.querySelector(selector)).find((element) => element !== null);
  return without(container ?? document.body, container ? HIDDEN : `${HIDDEN}, ${CHROME}`);
}

function without(content: Element, selector: string): Element {
  for (const element of Array.from(content.querySelectorAll(selector))) element.remove();
  return content;
}

/**
 * Readability drops the h1 that repeats the `<title>` and turns every other h1 into an h2: the title
 * would be lost, and so would which headings were h1s. Renamed to an element Readability knows nothing
 * of, an h1 stays where it was, text and attributes (its heading record's stamp) included.
 */
function keepH1sFromReadability(document: Document): void {
  for (const h1 of Array.from(document.querySelectorAll('h1'))) {
    const renamed = document.createElement('renamed-h1');
    for (const { name, value } of Array.from(h1.attributes)) renamed.setAttribute(name, value);
    renamed.append(...Array.from(h1.childNodes));
    h1.replaceWith(renamed);
  }
}
