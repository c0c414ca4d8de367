import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer, type FileTypeResult } from 'file-type';
import { DocumentError } from './errors.js';
import { startsAsPage } from './html-parse.js';
import type { DocumentKind } from './types.js';
import { notUtf8Error } from './utf8.js';

/*
 * A document's kind comes from its bytes, never from its name: a crawler's links and an upload's file
 * names are often wrong. The name and declared content type only choose between Markdown and plain
 * text for bytes that are text, and a claim of a kind the bytes are not is refused as a mismatch, so an
 * admin learns that their "report.pdf" is really a text file instead of reading its text as a PDF's.
 */

export interface DocumentNaming {
  /** The file's name (an upload's, or the last segment of a crawled URL). */
  name?: string;
  /** The declared content type (an upload's part or an HTTP response header), parameters allowed. */
  contentType?: string;
}

const claimsByExtension: Record<string, DocumentKind> = { pdf: 'pdf', docx: 'docx', html: 'html', htm: 'html', xhtml: 'html' };
const claimsByContentType: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
};
const markdownContentTypes = ['text/markdown', 'text/x-markdown'];

const kindNames: Record<DocumentKind, string> = {
  pdf: 'a PDF',
  docx: 'a Word document',
  html: 'HTML',
  markdown: 'plain text',
  text: 'plain text',
};

const UTF16_BOM = [
  [0xff, 0xfe],
  [0xfe, 0xff],
];
// How much of a text file is looked at for the start of a page (comments before it included).
const SNIFF_BYTES = 64 * 1024;

/** What the bytes are: a kind we read, or a description of what they are instead and why we cannot read them. */
type Sniffed = { kind: DocumentKind } | { kind?: undefined; description: string; problem: 'unsupported' | 'not_utf8' };

/** The kind of document the bytes are; refuses bytes of another kind, or of a kind other than the name or content type claims. */
export async function detectKind(bytes: Uint8Array, naming: DocumentNaming = {}): Promise<DocumentKind> {
  const sniffed = await sniff(bytes);
  const actual = sniffed.kind ? kindNames[sniffed.kind] : sniffed.description;
  for (const claimed of claims(naming)) {
    if (claimed !== sniffed.kind)
      throw new DocumentError('type_mismatch', `${subject(naming)} is not ${kindNames[claimed]}: its bytes are ${actual}.`);
  }
  if (sniffed.kind === 'text' && claimsMarkdown(naming)) return 'markdown';
  if (sniffed.kind) return sniffed.kind;
  if (sniffed.problem === 'not_utf8') throw notUtf8Error(subject(naming));
  throw new DocumentError(
    'unsupported_type',
    `${subject(naming)} is ${actual}, which cannot be read: upload a PDF, a Word document (.docx), HTML, Markdown or plain text.`,
  );
}

async function sniff(bytes: Uint8Array): Promise<Sniffed> {
  // Text in UTF-16 starts with its byte order mark, which file-type would take for the start of an MPEG frame.
  if (UTF16_BOM.some((bom) => bom.every((byte, i) => bytes[i] === byte)))
    return { description: 'UTF-16 text', problem: 'not_utf8' };
  const found = await fileTypeFromBuffer(bytes);
  if (found?.ext === 'pdf') return { kind: 'pdf' };
  if (found?.ext === 'docx') return { kind: 'docx' };
  // XHTML is XML to file-type: XML is looked at as text, and is read only when it is a page.
  const unsupported = found && ({ description: describeFileType(found), problem: 'unsupported' } as const);
  if (unsupported && found.ext !== 'xml') return unsupported;
  // NUL is valid UTF-8 but no text file holds one: such bytes are binary data.
  if (bytes.includes(0)) return { description: 'binary data of no kind we recognise', problem: 'unsupported' };
  if (!isUtf8(bytes)) return { description: 'text that is not UTF-8', problem: 'not_utf8' };
  // The whole is valid UTF-8; only the cut at the end of the slice may not be, which the sniff never reaches.
  if (startsAsPage(new TextDecoder().decode(bytes.subarray(0, SNIFF_BYTES)))) return { kind: 'html' };
  return unsupported || { kind: 'text' };
}

/** The kinds the name and the content type claim (only the kinds that have bytes of their own: PDF, DOCX, HTML). */
function claims({ name, contentType }: DocumentNaming): DocumentKind[] {
  const extension = name?.match(/\.([a-z0-9]+)$/i)?.[1]?.toLowerCase();
  const byName = extension ? claimsByExtension[extension] : undefined;
  const byType = claimsByContentType[mediaType(contentType)];
  return [byName, byType].filter((kind): kind is DocumentKind => kind !== undefined);
}

function claimsMarkdown({ name, contentType }: DocumentNaming): boolean {
  return /\.(?:md|markdown)$/i.test(name ?? '') || markdownContentTypes.includes(mediaType(contentType));
}

/** `Text/HTML; charset=utf-8` → `text/html`. */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function subject({ name, contentType }: DocumentNaming): string {
  if (name) return name;
  return contentType ? `The file declared as ${mediaType(contentType)}` : 'The file';
}

const nouns: Array<[string, string]> = [
  ['image/', 'image'],
  ['audio/', 'audio file'],
  ['video/', 'video'],
  ['font/', 'font'],
];

/** `a PNG image`, `an MP4 video`, `a ZIP archive`: what file-type found, as an admin would say it. */
function describeFileType({ ext, mime }: FileTypeResult): string {
  if (ext === 'cfb') return 'an old-format Office file (.doc, .xls, .ppt) or a password-protected Office file';
  if (ext === 'zip') return 'a ZIP archive';
  const name = ext.toUpperCase();
  const noun = nouns.find(([prefix]) => mime.startsWith(prefix))?.[1] ?? 'file';
  // Said letter by letter, these start with a vowel sound: "an MP4", "an SVG", "an XLSX".
  return `${/^[AEFHILMNORSX]/.test(name) ? 'an' : 'a'} ${name} ${noun}`;
}
