import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * The byte-level facts about a release file, each computed in exactly one place: its Subresource
 * Integrity string, and its precompressed forms (which are also what its gzipped size is measured on).
 */

/** `sha384-<base64>` of the exact bytes (a string is taken as its UTF-8 bytes), as `integrity` attributes want it. */
export function integrityOf(bytes: string | Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** gzip at level 9: written beside each file at publish time, so the server never compresses. */
export function gzip(bytes: string | Uint8Array): Buffer {
  return gzipSync(bytes, { level: 9 });
}

/** Brotli at quality 11, the `.br` sibling of each file. */
export function brotli(bytes: string | Uint8Array): Buffer {
  const input = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return brotliCompressSync(input, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: input.byteLength,
    },
  });
}

/** What a visitor downloads: the size of the gzip sibling. */
export function gzippedSize(text: string | Uint8Array): number {
  return gzip(text).byteLength;
}
