import type { IngestItem } from '#knowledge/ingestion-client.js';
import { AppError } from '../errors.js';
import { ingestLimits } from '../schemas/ingest.js';

const tooLarge = (message: string) => new AppError(413, 'payload_too_large', message);

/**
 * Refuses (413, naming the limit) an item that the schema allows but Temporal would not carry:
 * content too long, `metadata` or `sourceData` too deep or too large, the whole item too large.
 * Depth is checked before anything is serialised, as serialising is what too deep breaks.
 */
export function checkItemSizes(items: IngestItem[]): void {
  items.forEach((item, index) => {
    const where = (field: string) => (items.length > 1 ? `items[${index}]${field}` : field.replace(/^\./, '') || 'the item');
    if (item.data.content.length > ingestLimits.contentChars)
      throw tooLarge(
        `${where('.data.content')} is longer than ${ingestLimits.contentChars} characters: split the item or shorten it.`,
      );
    for (const field of ['metadata', 'sourceData'] as const) {
      const value = item.data[field];
      if (value === undefined) continue;
      if (deeperThan(value, ingestLimits.nesting))
        throw tooLarge(`${where(`.data.${field}`)} is nested deeper than ${ingestLimits.nesting} levels: flatten it.`);
      if (jsonBytes(value) > ingestLimits.metadataBytes)
        throw tooLarge(`${where(`.data.${field}`)} is larger than ${ingestLimits.metadataBytes} bytes as JSON: send less of it.`);
    }
    if (jsonBytes(item) > ingestLimits.itemBytes)
      throw tooLarge(`${where('')} is larger than ${ingestLimits.itemBytes} bytes as JSON: shorten it.`);
  });
}

/**
 * Refuses (413, naming the limit) a keep list longer than one cleanup stages. The list is staged in
 * Redis, not carried by Temporal (F16), so its bytes are bounded by the body limit alone.
 */
export function checkKeepList(keepExternalIds: string[]): void {
  if (keepExternalIds.length > ingestLimits.keepExternalIds)
    throw tooLarge(
      `keepExternalIds holds ${keepExternalIds.length} ids, more than ${ingestLimits.keepExternalIds}: clean up in smaller origins.`,
    );
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Whether `value` has objects or arrays nested more than `levels` deep; it looks no deeper than that. */
function deeperThan(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  return Object.values(value).some((child) => deeperThan(child, levels - 1));
}
