import { LRUCache } from 'lru-cache';

/**
 * Rendered JSON answers of one process, keyed by everything they depend on (a version that moves
 * with the data among it), so an unchanged page is sent again without being read and rendered.
 * Requests for a page that is being rendered wait for that rendering instead of starting another.
 */
export function createRenderedCache(options: { max: number; ttlMs: number }) {
  const cache = new LRUCache<string, string>({ max: options.max, ttl: options.ttlMs });
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
