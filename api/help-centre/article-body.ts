import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * An article body is "HTML or markdown, kept as sent". markdown-it renders markdown and lets HTML
 * through (an HTML body comes out as it went in); its own link check already refuses `javascript:`
 * and the like. `linkify` turns bare addresses into links, `typographer` stays off: an author's
 * quotes and dashes are theirs.
 */
const markdown = new MarkdownIt({ html: true, linkify: true });

/**
 * What an author's body may hold once rendered: text formatting, headings, lists, tables, code,
 * quotes, links and images. No script, style, frame, form, event handler or class reaches the page,
 * so the page's policy and look are ours whatever an author pasted.
 */
const allowed: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'kbd', 'samp'],
    ...['strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'abbr', 'q', 'cite'],
    ...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'],
    ...['a', 'img', 'figure', 'figcaption', 'details', 'summary', 'span', 'div'],
  ],
  // `rel` and `loading` are set by `transformTags` below, whatever an author wrote (the transforms
  // run before the attributes are checked).
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    abbr: ['title'],
    ol: ['start'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  // Images only over https: the page's policy would block anything else, and a plain-http image
  // would make the page mixed content.
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  // An image whose address was refused has nothing left to show.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'nofollow noopener noreferrer' } }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
  },
};

/** The body of an article as safe HTML for the help-centre page. */
export function renderArticleBody(body: string): string {
  return sanitizeHtml(markdown.render(body), allowed);
}
