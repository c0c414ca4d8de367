import type { Citation } from '../chat-types.js';
import { parseLightMarkdown, safeHref, WEB_SCHEMES, type Inline } from '../light-markdown.js';
import { h, link } from './elements.js';

type Sources = ReadonlyMap<number, Citation>;

/**
 * An AI answer's light markdown as DOM: paragraphs, lists, bold, italic, code, links, and `[n]`
 * markers as small superscript references to the cited source. Built from the parser's tokens with
 * createElement and text nodes only; every link URL is checked again here, whatever the parser did.
 */
export function renderRichText(text: string, citations: readonly Citation[] = []): DocumentFragment {
  const sources: Sources = new Map(citations.map((citation) => [citation.n, citation]));
  const fragment = document.createDocumentFragment();
  for (const block of parseLightMarkdown(text)) {
    if (block.type === 'paragraph') {
      fragment.append(h('p', {}, ...inlines(block.children, sources)));
      continue;
    }
    const list = block.ordered ? h('ol', block.start === 1 ? {} : { start: String(block.start) }) : h('ul');
    for (const item of block.items) list.append(h('li', {}, ...inlines(item, sources)));
    fragment.append(list);
  }
  return fragment;
}

function inlines(tokens: Inline[], sources: Sources): Array<Node | string> {
  return tokens.flatMap((token) => inline(token, sources));
}

function inline(token: Inline, sources: Sources): Array<Node | string> {
  switch (token.type) {
    case 'text':
      return [token.text];
    case 'break':
      return [h('br')];
    case 'code':
      return [h('code', {}, token.text)];
    case 'strong':
      return [h('strong', {}, ...inlines(token.children, sources))];
    case 'emphasis':
      return [h('em', {}, ...inlines(token.children, sources))];
    case 'link': {
      const children = inlines(token.children, sources);
      const href = safeHref(token.href);
      return href ? [link(href, children)] : children;
    }
    case 'citation':
      return [reference(token.n, sources.get(token.n))];
  }
}

/** `[n]` as a superscript number: a link to the source when it has a web address, its title on hover. */
function reference(n: number, source: Citation | undefined): HTMLElement {
  const href = source?.url ? safeHref(source.url, WEB_SCHEMES) : undefined;
  const title = source?.title ? String(source.title) : undefined;
  const label = String(n);
  return h(
    'sup',
    { 'data-el': 'ref' },
    href ? link(href, [label], { title, 'aria-label': title && `${n}: ${title}` }) : h('span', { title }, label),
  );
}

/** The sources of an answer as a numbered list: each title a link when its URL is http or https. */
export function renderCitations(citations: readonly Citation[], heading: string): HTMLElement {
  const list = h('ol');
  for (const { n, title, url } of [...citations].sort((a, b) => a.n - b.n)) {
    const href = url ? safeHref(url, WEB_SCHEMES) : undefined;
    const text = String(title);
    list.append(h('li', { value: String(n) }, href ? link(href, [text]) : text));
  }
  return h('div', { 'data-el': 'citations' }, h('p', { 'data-el': 'citations-title' }, heading), list);
}
