/*
 * Documents as titled sections of plain text, for the website crawler (pages, and the PDFs and Word
 * documents they link to) and for file uploads (PDF, DOCX, HTML, Markdown, plain text).
 */
export { detectKind, type DocumentNaming } from './detect.js';
export { DocumentError, type DocumentErrorCode, type DocumentLimitHit } from './errors.js';
export { extractDocument, type ExtractOptions } from './extract.js';
export { htmlSections, readHtml, type HtmlDocument, type HtmlOptions } from './html.js';
export { defaultDocumentLimits, type DocumentLimits } from './limits.js';
export type { DocumentKind, DocumentSection, ExtractedDocument } from './types.js';
