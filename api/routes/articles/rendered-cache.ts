import { LRUCache } from 'lru-cache';

/**
 * Rendered JSON answers of one process, keyed by everything they depend on (a version that moves
 * with the data among it), so an unchanged page is sent again without being read and rendered.
 * Requests for a page that is being rendered wait for that rendering instead of starting another.
 *
 * Bounded by size, not by count: a key holder chooses page sizes, filters and search terms, so
 * pages of up to about 20 MB each could otherwise fill the heap every tenant's requests share.
 * `maxChars` bounds the JSON text kept (a character of it is one to two bytes of heap); a page
 * over `maxEntryChars` is sent without being kept.
 */
export function createRenderedCache(options: { maxChars: number; maxEntryChars: number; ttlMs: number }) {
  const cache = new LRUCache<string, string>({
    maxSize: options.maxChars,
    maxEntrySize: options.maxEntryChars,
    sizeCalculation: (json) => Math.max(1, json.length),
    ttl: options.ttlMs,
  });
  const rendering = new Map<string, Promise<string>>();
  return {
    async get(key: string, render: () => Promise<unknown>, ttlMs?: number): Promise<string> {
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      let pending = rendering.get(key);
      if (!pending) {
        pending = render()
          .then((body) => {
            const json = JSON.stringify(body);
            cache.set(key, json, ttlMs === undefined ? {} : { ttl: ttlMs });
            return json;
          })
          .finally(() => rendering.delete(key));
        rendering.set(key, pending);
      }
      return pending;
    },
  };
}
