import { buffer } from 'node:stream/consumers';
import PDFDocument from 'pdfkit';

/* Real documents for tests, written by well-kept libraries: what an upload or a crawled link holds. */

/** A PDF as pdfkit writes it: `write` draws on it (its first page is there unless `autoFirstPage: false`). */
export async function makePdf(write: (doc: PDFKit.PDFDocument) => void, options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument(options);
  const bytes = buffer(doc);
  write(doc);
  doc.end();
  return bytes;
}

/** A PDF with one page per text. */
export const pdfOfPages = (texts: string[], options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> =>
  makePdf((doc) => texts.forEach((text) => doc.addPage().fontSize(14).text(text)), { ...options, autoFirstPage: false });
