import { normalizePlainText } from './plain-text.js';
import type { ExtractedDocument } from './types.js';
import { decodeUtf8 } from './utf8.js';

/** Reads a plain-text file (strict UTF-8): one section without a heading, every character kept. */
export function readText(bytes: Uint8Array): ExtractedDocument {
  const text = normalizePlainText(decodeUtf8(bytes));
  return { kind: 'text', title: null, sections: text ? [{ heading: null, text }] : [] };
}
