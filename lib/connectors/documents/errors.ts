/*
 * Why a document cannot be read. The message goes to a tenant admin as it is (an upload's answer, a
 * crawl's report), so it says what is wrong with their file and, for a limit, which limit and its value.
 */

export type DocumentErrorCode =
  /** The bytes are none of the kinds we read. */
  | 'unsupported_type'
  /** The name or declared content type claims a kind the bytes are not. */
  | 'type_mismatch'
  | 'too_large'
  | 'too_many_pages'
  | 'too_much_text'
  /** A password-protected PDF. */
  | 'encrypted'
  /** A PDF or Word document that cannot be read, a zip bomb among them. */
  | 'corrupt'
  /** Nothing to ingest: no text at all (a scanned PDF). */
  | 'no_text'
  /** Reading it needed more memory or time than a document may take (`document-reader.ts`). */
  | 'too_complex'
  | 'not_utf8';

/** The limit an error hit: its name (`maxBytes`, …) and its value. */
export interface DocumentLimitHit {
  name: string;
  value: number;
}

export class DocumentError extends Error {
  override readonly name = 'DocumentError';

  constructor(
    readonly code: DocumentErrorCode,
    message: string,
    readonly limit?: DocumentLimitHit,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
