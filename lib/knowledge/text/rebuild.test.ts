import test from 'ava';
import { chunkText, type ChunkOptions } from './chunk.js';
import { normalizeText } from './normalize.js';
import { rebuildBody } from './rebuild.js';

// The body comes back from the real chunker's output: the overlap each chunk repeats is removed
// again, and the rebuilt body chunks to exactly the texts it was rebuilt from.

const title = 'Shipping and returns';

const words = ['parcel', 'delivery', 'refund', 'order', 'courier', 'weekend', 'invoice', 'address', 'label', 'return'];

/** Deterministic sentences of 5 to 24 words, `perParagraph` to a line. */
function prose(sentences: number, perParagraph: number, seed = 7): string {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const all = Array.from({ length: sentences }, (_, i) => {
    const sentence = Array.from({ length: 5 + next(20) }, () => words[next(words.length)]!).join(' ');
    return `${sentence[0]!.toUpperCase()}${sentence.slice(1)}${['.', '!', '?'][i % 3]}`;
  });
  const lines: string[] = [];
  for (let i = 0; i < all.length; i += perParagraph) lines.push(all.slice(i, i + perParagraph).join(' '));
  return lines.join('\n');
}

const bodies: Array<[string, string, ChunkOptions?]> = [
  ['one short paragraph', 'Parcels leave the warehouse on weekdays. Weekend orders ship on Monday.'],
  ['many paragraphs', prose(120, 4)],
  ['one long paragraph', prose(80, 80)],
  ['a sentence longer than a chunk', `${'courier address label '.repeat(120).trim()}. Then a short one.`],
  ['repetitive text', normalizeText('<p>Return the parcel.</p>'.repeat(150))],
  ['CJK without spaces', '包裹在工作日发货。周末的订单在星期一发货。'.repeat(200)],
  ['small chunks with a large overlap', prose(60, 3), { maxChars: 200, overlapChars: 100 }],
];

for (const [name, body, options] of bodies) {
  test(`rebuilds the body: ${name}`, (t) => {
    const texts = chunkText(title, body, options).map((chunk) => chunk.text);
    if (name !== 'one short paragraph') t.true(texts.length > 2, 'several chunks');
    const rebuilt = rebuildBody(texts, options);
    t.is(rebuilt, body);
    t.deepEqual(
      chunkText(title, rebuilt, options).map((chunk) => chunk.text),
      texts,
    );
  });
}

test('chunks that repeat nothing are joined on a new line, and chunk the same again', (t) => {
  const body = prose(40, 5);
  const options = { overlapChars: 0 };
  const texts = chunkText(title, body, options).map((chunk) => chunk.text);
  t.true(texts.length > 2);
  const rebuilt = rebuildBody(texts, options);
  t.is(rebuilt, texts.join('\n'));
  t.deepEqual(
    chunkText(title, rebuilt, options).map((chunk) => chunk.text),
    texts,
  );
});

test('an item without a body rebuilds to an empty body', (t) => {
  t.is(rebuildBody(chunkText(title, '').map((chunk) => chunk.text)), '');
  t.is(rebuildBody([]), '');
});
