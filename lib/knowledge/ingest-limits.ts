/**
 * Bounds on one item and on a cleanup: beyond them the ingestion API answers 413 rather than accept
 * them. Each item travels to Temporal as one payload; Temporal refuses payloads over 2 MB, so an
 * item (at most 100,000 characters of content, 6 bytes each escaped, plus its metadata) stays within
 * 1 MB, leaving room for what travels with it. A cleanup's keep list is staged in Redis (F16), not
 * sent to Temporal: only the body limit and `keepExternalIds` (what one staging writes) bound it. `nesting` is how deep `metadata` and `sourceData` may go: JSON.stringify
 * (in the Temporal client) recurses, and fails on a few thousand levels.
 */
export const ingestLimits = {
  itemsPerBulk: 500,
  titleChars: 1000,
  contentChars: 100_000,
  /** `metadata` and `sourceData`, each, as JSON. */
  metadataBytes: 256 * 1024,
  nesting: 32,
  itemBytes: 1024 * 1024,
  keepExternalIds: 250_000,
} as const;
