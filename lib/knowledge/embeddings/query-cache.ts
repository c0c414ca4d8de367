import { LRUCache } from 'lru-cache';
import type { Embedder } from './embedder.js';

/**
 * Remembers the vectors of recent texts: visitors ask the same questions ("opening hours",
 * "return policy") again and again, and a search should not pay the model for each. Only for
 * queries; ingestion embeds each chunk once anyway.
 */
export function cachingEmbedder(inner: Embedder, { maxEntries }: { maxEntries: number }): Embedder {
  const cache = new LRUCache<string, number[]>({ max: maxEntries });
  return {
    space: inner.space,
    ...(inner.tokenWindow ? { tokenWindow: inner.tokenWindow } : {}),
    async embed(texts) {
      const found = new Map(texts.flatMap((text) => (cache.has(text) ? [[text, cache.get(text)!] as const] : [])));
      const missing = [...new Set(texts.filter((text) => !found.has(text)))];
      if (missing.length > 0) {
        const vectors = await inner.embed(missing);
        missing.forEach((text, i) => {
          found.set(text, vectors[i]!);
          cache.set(text, vectors[i]!);
        });
      }
      return texts.map((text) => found.get(text)!);
    },
  };
}
