import { DocumentError } from './errors.js';

/** How much of a document we read: the bounds that keep one upload or crawled file from taking a worker's memory and time. */
export interface DocumentLimits {
  /** The document's own size. */
  maxBytes: number;
  /** A PDF's page count, checked before any page is read. */
  maxPages: number;
  /** The text extracted from all sections together. */
  maxCharacters: number;
}

export const defaultDocumentLimits: DocumentLimits = {
  maxBytes: 25 * 1024 * 1024,
  maxPages: 1_000,
  maxCharacters: 2_000_000,
};

/** Refuses text past `maxCharacters`: checked once over all sections, and as a PDF's pages are read, to stop early. */
export function assertTextWithinLimit(characters: number, limits: DocumentLimits): void {
  if (characters <= limits.maxCharacters) return;
  throw new DocumentError(
    'too_much_text',
    `The document has more than ${count(limits.maxCharacters)} characters of text, the limit (maxCharacters); split it into smaller documents.`,
    { name: 'maxCharacters', value: limits.maxCharacters },
  );
}

/** A count as an admin reads it: `2,000,000`. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** Bytes as an admin reads them: `25 MiB`, `1.5 MiB`, `300 KiB`, `12 bytes`. */
export function byteSize(bytes: number): string {
  const units: Array<[string, number]> = [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ];
  const [unit, size] = units.find(([, size]) => bytes >= size) ?? ['bytes', 1];
  return `${count(Math.round((bytes / size) * 10) / 10)} ${unit}`;
}
