/*
 * What a document becomes before ingestion: titled sections of plain text. Each section later becomes
 * one item titled "<document title> — <section heading>", so a section is what a visitor's question
 * should find on its own: a web page's h2 section, a Word document's Heading 2 part, a PDF's page.
 */

/** One part of a document, as one ingestion item will hold it. */
export interface DocumentSection {
  /** The section's heading text (whitespace collapsed); null for the lead part before the first heading. */
  heading: string | null;
  /** Where the heading can be linked to in its page (an element id), when it has one. */
  anchor?: string;
  /** PDF: the 1-based page number this section is. */
  page?: number;
  /** The section's text, normalized with `normalizeText` from '#knowledge/text/normalize.js' (one block per line, tables as "a | b" rows). Never empty. */
  text: string;
}

export type DocumentKind = 'html' | 'pdf' | 'docx' | 'markdown' | 'text';

export interface ExtractedDocument {
  kind: DocumentKind;
  /** The document's own title (HTML <title> / Readability title / first h1; PDF info Title or the first heading; DOCX first heading; Markdown first heading), or null when it has none (the caller then uses the file name). */
  title: string | null;
  /** The document's declared language (HTML `<html lang>`, PDF /Lang, DOCX's language if cheap), lower-case BCP 47 tag, when declared. */
  language?: string;
  sections: DocumentSection[];
  /** PDF: its page count. */
  pages?: number;
}
