import test from 'ava';
import { createRenderedCache } from './rendered-cache.js';

/** A cache whose renders are counted, each page `chars` characters of text. */
function countedCache(options: { maxChars: number; maxEntryChars: number }) {
  const cache = createRenderedCache({ ...options, ttlMs: 60_000 });
  const renders: string[] = [];
  const page = (key: string, chars: number) =>
    cache.get(key, async () => {
      renders.push(key);
      return 'x'.repeat(chars);
    });
  return { page, renders };
}

test('an unchanged page is rendered once', async (t) => {
  const { page, renders } = countedCache({ maxChars: 1_000, maxEntryChars: 1_000 });
  t.is((await page('a', 100)).length, 100);
  await page('a', 100);
  t.deepEqual(renders, ['a']);
});

test('pages are kept up to a size in characters, whatever their count: the oldest go first', async (t) => {
  const { page, renders } = countedCache({ maxChars: 1_000, maxEntryChars: 1_000 });
  await page('a', 400);
  await page('b', 400);
  await page('c', 400); // 1,200 characters: `a` must go
  await page('b', 400);
  await page('c', 400);
  await page('a', 400);
  t.deepEqual(renders, ['a', 'b', 'c', 'a']);
});

test('a page over the entry limit is answered but not kept, and evicts nothing', async (t) => {
  const { page, renders } = countedCache({ maxChars: 1_000, maxEntryChars: 500 });
  await page('small', 100);
  t.is((await page('huge', 800)).length, 800);
  await page('huge', 800);
  await page('small', 100);
  t.deepEqual(renders, ['small', 'huge', 'huge']);
});
