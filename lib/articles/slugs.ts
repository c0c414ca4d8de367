/** Slugs: deriving one from a title or name, and finding the first free one in a knowledge base's slug index. */
import type { RedisClient } from '#platform/redis.js';

/** Derived slugs are cut to this many characters (explicit ones are limited by the request schema). */
const derivedSlugLength = 80;

const letterFolds: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i' };

/** Lower-case ASCII letters and digits joined by single hyphens: "Crème brûlée" → "creme-brulee". */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøđðþłı]/g, (letter) => letterFolds[letter] ?? '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, derivedSlugLength)
    .replace(/-+$/, '');
}

/** The first of `base`, `base-2`, `base-3`… that is free in `slugsKey` (or already `ownerId`'s). */
export async function freeSlug(redis: RedisClient, slugsKey: string, base: string, ownerId: string): Promise<string> {
  for (let start = 1; ; start += 20) {
    const candidates = Array.from({ length: 20 }, (_, i) => (start + i === 1 ? base : `${base}-${start + i}`));
    const holders = await redis.hmGet(slugsKey, candidates);
    const free = candidates.find((_, i) => !holders[i] || holders[i] === ownerId);
    if (free) return free;
  }
}
