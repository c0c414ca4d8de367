import { LRUCache } from 'lru-cache';

/**
 * Rendered answers of one process (JSON, HTML pages), keyed by everything they depend on (a version that moves
 * with the data among it), so an unchanged page is sent again without being read and rendered.
 * Requests for a page that is being rendered wait for that rendering instead of starting another.
 *
 * Bounded by size, not by count: a key holder chooses page sizes, filters and search terms, so
 * pages of up to about 20 MB each could otherwise fill the heap every tenant's requests share.
 * `maxChars` bounds the text kept (a character of it is one to two bytes of heap); a page over
 * `maxEntryChars` is sent without being kept.
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
    /** The text `render` makes for `key`, from the cache while it holds it. */
    async get(key: string, render: () => Promise<string>, ttlMs?: number): Promise<string> {
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      let pending = rendering.get(key);
      if (!pending) {
        pending = render()
          .then((text) => {
            cache.set(key, text, ttlMs === undefined ? {} : { ttl: ttlMs });
            return text;
          })
          .finally(() => rendering.delete(key));
        rendering.set(key, pending);
      }
      return pending;
    },
  };
}
