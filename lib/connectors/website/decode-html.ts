/**
 * A page's bytes as text, in the character set it is written in: a byte-order mark, else the
 * `charset` of its Content-Type, else a `<meta charset>` (or `http-equiv` Content-Type) in its first
 * 1,024 bytes, as browsers look for it, else UTF-8. A label the runtime does not know reads as UTF-8,
 * with U+FFFD for what is not.
 */
export function decodeHtml(bytes: Uint8Array, contentType: string | null): string {
  const charset = bomCharset(bytes) ?? charsetIn(contentType ?? '') ?? metaCharset(bytes) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}

function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

const charsetIn = (text: string) => /charset\s*=\s*["']?([\w.:-]+)/i.exec(text)?.[1];

function metaCharset(bytes: Uint8Array): string | undefined {
  // Latin-1 maps each byte to one character, so an ASCII tag reads the same whatever the real set.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    const found = /\bcharset\s*=\s*["']?([\w.:-]+)/i.exec(tag)?.[1];
    if (found) return found;
  }
  return undefined;
}
