import MarkdownIt from 'markdown-it';
import { htmlSections } from './html.js';
import type { ExtractedDocument } from './types.js';
import { decodeUtf8 } from './utf8.js';

// `html: false`: HTML inside the Markdown stays text, so a file cannot smuggle markup (scripts, hidden blocks) in.
const markdown = new MarkdownIt({ html: false });

/** Reads a Markdown file: rendered to HTML, then split at its headings like any HTML. */
export function readMarkdown(bytes: Uint8Array): ExtractedDocument {
  return { kind: 'markdown', ...htmlSections(markdown.render(decodeUtf8(bytes)), { mainContent: false }) };
}
