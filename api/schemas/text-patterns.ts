/**
 * The patterns request fields are checked against, each with the words a refusal says in place of
 * the regular expression: people read these messages (`api/validation.ts` puts them in).
 */
export const textPatterns = {
  notBlank: { pattern: '\\S', words: 'must contain more than white space' },
  // Ids become parts of workflow ids and URLs, which a lone UTF-16 surrogate cannot be encoded into
  // (ajv compiles patterns with the u flag, so a surrogate pair is one code point outside the range).
  wellFormed: { pattern: '^[^\\uD800-\\uDFFF]*$', words: 'must be well-formed Unicode text (no lone surrogate)' },
  // Secrets go into a request header or an HMAC key.
  secret: { pattern: '^[!-~]+$', words: 'must be printable ASCII characters (letters, digits, symbols) without spaces' },
  // WordPress shows application passwords in groups of four with spaces, and ignores the spaces when it checks one.
  applicationPassword: {
    pattern: '^ *[!-~]+(?: +[!-~]+)* *$',
    words: 'must be printable ASCII characters (letters, digits, symbols); spaces between groups are fine',
  },
  httpAddress: { pattern: '^https?://', words: 'must be an http:// or https:// address' },
  // Source addresses are shown back, and credentials have fields of their own.
  sourceAddress: {
    pattern: '^https?://[^/?#@]+(/[^?#]*)?$',
    words: 'must be an http:// or https:// address without user:password@, query or fragment',
  },
  // A page a crawl starts from may have a query; a fragment names no other page.
  pageAddress: {
    pattern: '^https?://[^/?#@]+([/?][^#]*)?$',
    words: 'must be an http:// or https:// address without user:password@ or fragment',
  },
  // robots.txt's pattern style: a path from `/`, or a pattern that begins with `*`.
  pathPattern: { pattern: '^[/*][!-~]*$', words: 'must be a path pattern starting with / or *, without spaces' },
  slug: {
    pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
    words: 'must be lower-case letters and digits joined by single hyphens, such as how-to-pitch-a-tent',
  },
  languageTag: { pattern: '^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$', words: 'must be a language tag such as de or en-GB' },
  // The widget also takes the underscore form browsers and platforms report (en_GB).
  widgetLanguageTag: {
    pattern: '^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$',
    words: 'must be a language tag such as de, en-GB or en_GB',
  },
  allowedDomain: {
    pattern:
      '^(?:https?://)?(?:\\*\\.)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?::\\d{1,5})?$',
    words: 'must be a domain (example.com), every subdomain of one (*.example.com) or one origin (https://app.example.com)',
  },
  yearMonthVersion: { pattern: '^[0-9]{4}-[0-9]{2}$', words: 'must be a version of the form YYYY-MM, such as 2025-01' },
  // Identifiers and versions that end up in Graph API paths: never `/` or `.`.
  platformId: { pattern: '^[A-Za-z0-9_-]+$', words: 'may hold only letters, digits, _ and -' },
  graphApiVersion: { pattern: '^v[0-9]+\\.[0-9]+$', words: 'must be a version such as v23.0' },
  templateName: {
    pattern: '^[a-z0-9_]+$',
    words: 'must be lowercase letters, digits and underscores, as the platform names templates (order_update)',
  },
  templateLanguage: {
    pattern: '^[a-z]{2,3}(_[A-Z]{2})?$',
    words: 'must be a language code as the platform writes it: en, en_US, pt_BR',
  },
  phoneNumber: {
    pattern: '^\\+[1-9][0-9]{6,14}$',
    words: 'must be a phone number in E.164 form: +, the country code and digits only, such as +4915123456789',
  },
} as const;

/** The words for a refused pattern, when it is one of `textPatterns`. */
export const wordsForPattern: ReadonlyMap<string, string> = new Map(
  Object.values(textPatterns).map(({ pattern, words }) => [pattern, words]),
);
