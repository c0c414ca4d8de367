import { LRUCache } from 'lru-cache';

/**
 * Rendered JSON answers of one process, keyed by everything they depend on (a version that moves
 * with the data among it), so an unchanged page is sent again without being read and rendered.
 */
export function createRenderedCache(options: { max: number; ttlMs: number }) {
  const cache = new LRUCache<string, string>({ max: options.max, ttl: options.ttlMs });
  return {
    async get(key: string, render: () => Promise<unknown>, ttlMs?: number): Promise<string> {
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const json = JSON.stringify(await render());
      cache.set(key, json, ttlMs === undefined ? {} : { ttl: ttlMs });
      return json;
    },
  };
}
