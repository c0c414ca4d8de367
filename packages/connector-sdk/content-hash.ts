import { createHash } from 'node:crypto';

/**
 * The content hash the service compares to skip unchanged items: SHA-256, hex, of
 * `JSON.stringify([title, content])`.
 *
 * JSON of a two-element array rather than `title + content` because concatenation is ambiguous
 * ("ab" + "c" and "a" + "bc" would collide, so a change moving text between title and content would be
 * skipped). Only title and content count: they are what is embedded; url, metadata and sourceData are
 * updated with `options.metadataOnly` instead.
 */
export function contentHash(title: string, content: string): string {
  return createHash('sha256')
    .update(JSON.stringify([title, content]), 'utf8')
    .digest('hex');
}
