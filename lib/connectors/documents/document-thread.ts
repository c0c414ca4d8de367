import { DocumentError } from './errors.js';
import { extractDocument, type ExtractOptions } from './extract.js';
import { readHtml, type HtmlDocument } from './html.js';
import type { ExtractedDocument } from './types.js';

/*
 * The thread documents are read on (a Piscina worker, started by `document-reader.ts`): a PDF's or a
 * Word file's reading blocks for seconds and, for a hostile file, may grow without bound, so it runs
 * where its heap is capped and it can be ended; a crawled page's reading (Readability, tens of
 * milliseconds a page) runs here too, off the worker's event loop. A refusal crosses back as data: an Error's class does
 * not survive the way between threads.
 */

/** A file's bytes to extract, or a crawled page's HTML to read (its main content, links and directives). */
export type DocumentTask = (ExtractOptions & { kind: 'file'; bytes: Uint8Array }) | { kind: 'page'; html: string; url: string };

export type DocumentOutcome =
  { document: ExtractedDocument } | { page: HtmlDocument } | { refused: Pick<DocumentError, 'code' | 'message' | 'limit'> };

export default async function readOnThread(task: DocumentTask): Promise<DocumentOutcome> {
  if (task.kind === 'page') return { page: readHtml(task.html, { mainContent: true, url: task.url }) };
  const { kind: _kind, bytes, ...options } = task;
  try {
    return { document: await extractDocument(bytes, options) };
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    return { refused: { code: error.code, message: error.message, ...(error.limit ? { limit: error.limit } : {}) } };
  }
}
