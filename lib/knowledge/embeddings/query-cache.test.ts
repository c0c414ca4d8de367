import test from 'ava';
import type { Embedder } from './embedder.js';
import { cachingEmbedder } from './query-cache.js';

test('a repeated text is embedded once; results keep the order and duplicates of the input', async (t) => {
  const calls: string[][] = [];
  const model: Embedder = {
    space: { provider: 'test', model: 'lengths', dimensions: 1 },
    async embed(texts) {
      calls.push(texts);
      return texts.map((text) => [text.length]);
    },
  };
  const embedder = cachingEmbedder(model, { maxEntries: 2 });
  t.deepEqual(await embedder.embed(['opening hours']), [[13]]);
  t.deepEqual(await embedder.embed(['opening hours']), [[13]]);
  t.deepEqual(await embedder.embed(['a', 'opening hours', 'bb', 'a']), [[1], [13], [2], [1]]);
  t.deepEqual(calls, [['opening hours'], ['a', 'bb']], 'only unseen texts reach the model, each once');
  t.is(embedder.space, model.space);
});
