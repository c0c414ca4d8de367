import { DocumentError } from './errors.js';

// `fatal`: a byte sequence that is not UTF-8 is an error, never a silent U+FFFD. A BOM is dropped.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text; not_utf8 when they are not valid UTF-8 (Latin-1 or UTF-16 files, say). */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch (error) {
    throw notUtf8Error(undefined, error);
  }
}

/** `subject`: the file as the admin knows it, its name when there is one. */
export function notUtf8Error(subject = 'The file', cause?: unknown): DocumentError {
  return new DocumentError(
    'not_utf8',
    `${subject} is not valid UTF-8 text (it may be Latin-1, Windows-1252 or UTF-16); save it as UTF-8 and try again.`,
    undefined,
    cause === undefined ? undefined : { cause },
  );
}
