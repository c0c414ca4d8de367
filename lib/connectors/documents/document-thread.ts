import { DocumentError } from './errors.js';
import { extractDocument, type ExtractOptions } from './extract.js';
import type { ExtractedDocument } from './types.js';

/*
 * The thread documents are read on (a Piscina worker, started by `document-reader.ts`): a PDF's or a
 * Word file's reading blocks for seconds and, for a hostile file, may grow without bound, so it runs
 * where its heap is capped and it can be ended. A refusal crosses back as data: an Error's class does
 * not survive the way between threads.
 */

export type DocumentTask = ExtractOptions & { bytes: Uint8Array };

export type DocumentOutcome = { document: ExtractedDocument } | { refused: Pick<DocumentError, 'code' | 'message' | 'limit'> };

export default async function readOnThread({ bytes, ...options }: DocumentTask): Promise<DocumentOutcome> {
  try {
    return { document: await extractDocument(bytes, options) };
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    return { refused: { code: error.code, message: error.message, ...(error.limit ? { limit: error.limit } : {}) } };
  }
}
