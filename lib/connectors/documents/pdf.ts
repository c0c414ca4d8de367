import { fileURLToPath } from 'node:url';
// The legacy build's types re-export only some of these; the display API's own declarations have them all.
import type { DocumentInitParameters, PDFDocumentProxy, TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { DocumentError } from './errors.js';
import { languageTag } from './language.js';
import { assertTextWithinLimit, count, type DocumentLimits } from './limits.js';
import { headingOfPage, outlineEntries, type OutlineEntry } from './pdf-outline.js';
import { pageText } from './pdf-lines.js';
import { normalizePlainText, plainLine } from './plain-text.js';
import type { DocumentSection, ExtractedDocument } from './types.js';

const PDFJS = 'pdfjs-dist/legacy/build/pdf.mjs';
// pdf.js is a few MB of code: loaded with the first PDF, not by every process that imports this library.
let pdfjs: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | undefined;

/*
 * pdf.js in Node: the legacy build, whose "worker" runs in this thread (Node has no web workers; it is
 * loaded on the first document, nothing to configure). It only reads the bytes it is given and the
 * CMaps and standard-font data of its own package (files, for the text of CJK and non-embedded fonts),
 * never the network; no font is installed (`disableFontFace`), no system font looked up, no code
 * compiled from the PDF (`isEvalSupported: false`), and nothing printed (`verbosity: 0`, errors only,
 * which it throws rather than prints).
 */
const packageFolder = (folder: string) => fileURLToPath(new URL(`../../${folder}/`, import.meta.resolve(PDFJS)));
const parameters: DocumentInitParameters = {
  disableFontFace: true,
  useSystemFonts: false,
  isEvalSupported: false,
  verbosity: 0,
  cMapUrl: packageFolder('cmaps'),
  standardFontDataUrl: packageFolder('standard_fonts'),
};

/**
 * Reads a PDF: one section per page with text, headed by the outline entry covering the page. The page
 * count is checked before any page is read, the text as pages are read.
 */
export async function readPdf(bytes: Uint8Array, limits: DocumentLimits): Promise<ExtractedDocument> {
  const { getDocument } = await (pdfjs ??= import(PDFJS));
  // pdf.js takes the bytes' buffer over (it detaches it), and refuses a Buffer: it gets a plain copy.
  const task = getDocument({ ...parameters, data: new Uint8Array(bytes) });
  try {
    const pdf = await task.promise;
    if (pdf.numPages > limits.maxPages) {
      throw new DocumentError(
        'too_many_pages',
        `This PDF has ${count(pdf.numPages)} pages, more than the limit of ${count(limits.maxPages)} pages (maxPages).`,
        { name: 'maxPages', value: limits.maxPages },
      );
    }
    const [{ info }, outline] = await Promise.all([pdf.getMetadata(), outlineEntries(pdf)]);
    const sections = await pageSections(pdf, outline, limits);
    if (sections.length === 0) {
      throw new DocumentError(
        'no_text',
        `This looks like a scanned PDF: it has ${pages(pdf.numPages)} but no text layer; run it through OCR first.`,
      );
    }
    const { Title, Language } = info as { Title?: unknown; Language?: unknown };
    const language = languageTag(typeof Language === 'string' ? Language : undefined);
    const title = (typeof Title === 'string' && plainLine(Title)) || outline[0]?.title || null;
    return { kind: 'pdf', title, ...(language && { language }), sections, pages: pdf.numPages };
  } catch (error) {
    throw readingError(error);
  } finally {
    await task.destroy();
  }
}

async function pageSections(pdf: PDFDocumentProxy, outline: OutlineEntry[], limits: DocumentLimits): Promise<DocumentSection[]> {
  const sections: DocumentSection[] = [];
  let characters = 0;
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const { items } = await page.getTextContent();
    page.cleanup();
    const text = normalizePlainText(pageText(items.filter((item): item is TextItem => 'str' in item)));
    if (text === '') continue;
    characters += text.length;
    assertTextWithinLimit(characters, limits);
    sections.push({ page: number, heading: headingOfPage(outline, number), text });
  }
  return sections;
}

/** pdf.js's errors as an admin's: a password is `encrypted`, anything else that stops the reading `corrupt`. */
function readingError(error: unknown): DocumentError {
  if (error instanceof DocumentError) return error;
  const { name, message } = error instanceof Error ? error : { name: '', message: String(error) };
  if (name === 'PasswordException') {
    return new DocumentError(
      'encrypted',
      'This PDF is protected by a password; remove the password and upload it again.',
      undefined,
      {
        cause: error,
      },
    );
  }
  return new DocumentError(
    'corrupt',
    `This PDF cannot be read: it is damaged or not really a PDF (${message.replace(/\.$/, '')}).`,
    undefined,
    {
      cause: error,
    },
  );
}

function pages(n: number): string {
  return n === 1 ? '1 page' : `${count(n)} pages`;
}
