import { detectKind, type DocumentNaming } from './detect.js';
import { readDocx } from './docx.js';
import { DocumentError } from './errors.js';
import { readHtml } from './html.js';
import { assertTextWithinLimit, byteSize, count, defaultDocumentLimits, type DocumentLimits } from './limits.js';
import { readMarkdown } from './markdown.js';
import { readPdf } from './pdf.js';
import { readText } from './text.js';
import type { DocumentKind, ExtractedDocument } from './types.js';
import { decodeUtf8 } from './utf8.js';

export interface ExtractOptions extends DocumentNaming {
  limits?: DocumentLimits;
}

/**
 * A file's bytes as titled sections of text: an upload's, or a file a crawler found (a linked PDF or
 * Word document). The size is checked first, then the kind is told from the bytes, then the kind's
 * reader runs, then the text is checked against the limit; a document without text is refused.
 * Throws `DocumentError`.
 */
export async function extractDocument(bytes: Uint8Array, options: ExtractOptions = {}): Promise<ExtractedDocument> {
  const limits = options.limits ?? defaultDocumentLimits;
  if (bytes.byteLength > limits.maxBytes) {
    throw new DocumentError(
      'too_large',
      `The file is ${byteSize(bytes.byteLength)} (${count(bytes.byteLength)} bytes), more than the limit of ${byteSize(limits.maxBytes)} (maxBytes).`,
      { name: 'maxBytes', value: limits.maxBytes },
    );
  }
  const document = await read(await detectKind(bytes, options), bytes, limits);
  assertTextWithinLimit(
    document.sections.reduce((sum, section) => sum + section.text.length, 0),
    limits,
  );
  if (document.sections.length === 0) throw new DocumentError('no_text', 'The document has no text to read.');
  return document;
}

async function read(kind: DocumentKind, bytes: Uint8Array, limits: DocumentLimits): Promise<ExtractedDocument> {
  switch (kind) {
    case 'pdf':
      return readPdf(bytes, limits);
    case 'docx':
      return readDocx(bytes, limits);
    case 'html': {
      // An uploaded page is read as a crawled one is; what only a crawler needs is left out.
      const { links, canonical, robots, ...document } = readHtml(decodeUtf8(bytes), { mainContent: true });
      return document;
    }
    case 'markdown':
      return readMarkdown(bytes);
    case 'text':
      return readText(bytes);
  }
}
