import test from 'ava';
import { chunkText, DEFAULT_MAX_CHARS, DEFAULT_OVERLAP_CHARS, type Chunk } from './chunk.js';

// Chunks never exceed maxChars: sentences are cut to leave room for the overlap, so no tolerance is
// needed. Kept as a named constant so a future change to that guarantee is a visible decision.
const SIZE_TOLERANCE = 0;

const VOCABULARY = ['parcel', 'delivery', 'refund', 'order', 'courier', 'weekend', 'invoice', 'address', 'label', 'return'];
const TITLE = 'Shipping and returns';

/** Deterministic English-like sentences built from VOCABULARY, 6 to 29 words each. */
function sentences(count: number, seed = 1): string[] {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 6 + next(24) }, () => VOCABULARY[next(VOCABULARY.length)]!);
    const sentence = words.join(' ');
    return `${sentence[0]!.toUpperCase()}${sentence.slice(1)}${['.', '!', '?', '…'][i % 4]}`;
  });
}

/** Paragraphs of 1 to 6 sentences, one per line, as normalizeText produces them. */
function paragraphs(all: string[]): string {
  const lines: string[] = [];
  for (let i = 0, size = 1; i < all.length; i += size, size = (size % 6) + 1) lines.push(all.slice(i, i + size).join(' '));
  return lines.join('\n');
}

/** Where each chunk sits in the body: chunks are slices, found in order. */
function offsets(body: string, chunks: Chunk[]): Array<[number, number]> {
  let from = 0;
  return chunks.map(({ text }) => {
    const start = body.indexOf(text, from);
    if (start < 0) throw new Error(`chunk not found in body: ${text.slice(0, 40)}`);
    from = start + 1;
    return [start, start + text.length];
  });
}

const isSpaceAt = (text: string, i: number) => i < 0 || i >= text.length || /\s/.test(text[i]!);

function assertWellFormed(
  t: import('ava').ExecutionContext,
  body: string,
  chunks: Chunk[],
  maxChars: number,
  overlapChars: number,
) {
  const spans = offsets(body, chunks);
  chunks.forEach((chunk, i) => {
    t.is(chunk.index, i);
    t.true(chunk.text.length <= maxChars + SIZE_TOLERANCE, `chunk ${i} has ${chunk.text.length} characters`);
    t.is(chunk.embedText, `${TITLE}\n\n${chunk.text}`);
    const [start, end] = spans[i]!;
    t.true(isSpaceAt(body, start - 1) && !isSpaceAt(body, start), `chunk ${i} starts mid-word`);
    t.true(isSpaceAt(body, end) && !isSpaceAt(body, end - 1), `chunk ${i} ends mid-word`);
  });
  for (let i = 1; i < spans.length; i++) {
    const [previousStart, previousEnd] = spans[i - 1]!;
    const [start, end] = spans[i]!;
    t.true(start > previousStart && end > previousEnd, `chunk ${i} moves forward`);
    t.true(start < previousEnd, `chunk ${i} overlaps chunk ${i - 1}`);
    t.true(previousEnd - start <= overlapChars, `overlap of chunk ${i} is ${previousEnd - start} characters`);
  }
}

test('a short body is one chunk, with the title in front for embedding', (t) => {
  const body = 'Parcels ship within two days. Returns are free for 30 days!';
  t.deepEqual(chunkText(TITLE, body), [{ index: 0, text: body, embedText: `${TITLE}\n\n${body}` }]);
});

test('an empty body gives one chunk that embeds the title alone', (t) => {
  t.deepEqual(chunkText(TITLE, ''), [{ index: 0, text: '', embedText: TITLE }]);
  t.deepEqual(chunkText(` ${TITLE} `, ' \n \n'), [{ index: 0, text: '', embedText: TITLE }]);
});

test('a long body is cut into overlapping chunks within maxChars, at sentence ends and never mid-word', (t) => {
  const all = sentences(120);
  const body = paragraphs(all);
  const chunks = chunkText(TITLE, body);
  t.true(chunks.length >= Math.ceil(body.length / DEFAULT_MAX_CHARS), `${chunks.length} chunks`);
  assertWellFormed(t, body, chunks, DEFAULT_MAX_CHARS, DEFAULT_OVERLAP_CHARS);
  for (const sentence of all)
    t.true(
      chunks.some((chunk) => chunk.text.includes(sentence)),
      sentence,
    );
  // Chunks end with a whole sentence; they start with one unless the overlap had to fall back to words.
  for (const chunk of chunks) t.regex(chunk.text, /[.!?…]$/);
});

test('overlap repeats the last whole sentences of the previous chunk', (t) => {
  const body = 'One short sentence here. Two short sentences there. Three is the last one. Four ends it.';
  const chunks = chunkText(TITLE, body, { maxChars: 60, overlapChars: 30 });
  t.deepEqual(
    chunks.map((chunk) => chunk.text),
    [
      'One short sentence here. Two short sentences there.',
      'Two short sentences there. Three is the last one.',
      'Three is the last one. Four ends it.',
    ],
  );
});

test('when the last sentence is longer than the overlap, its last words are repeated', (t) => {
  const body = `${'Order parcel refund label '.repeat(3)}invoice. Next sentence starts here.`;
  const chunks = chunkText(TITLE, body, { maxChars: 90, overlapChars: 20 });
  t.is(chunks.length, 2);
  t.is(chunks[1]!.text, 'label invoice. Next sentence starts here.');
});

test('abbreviations, initials and decimals do not end a sentence', (t) => {
  const body = 'Dr. J. Smith ships e.g. parcels of 3.5 kg. Returns need a label. Ask us, i.e. support. Done!';
  const chunks = chunkText(TITLE, body, { maxChars: 45, overlapChars: 0 });
  t.deepEqual(
    chunks.map((chunk) => chunk.text),
    ['Dr. J. Smith ships e.g. parcels of 3.5 kg.', 'Returns need a label. Ask us, i.e. support.', 'Done!'],
  );
});

test('a chunk that is half full ends at a paragraph rather than taking half of the next one', (t) => {
  const paragraphOne = sentences(6, 3).join(' ');
  const paragraphTwo = sentences(6, 4).join(' ');
  t.true(paragraphOne.length > 500 && paragraphOne.length < 850 && paragraphTwo.length < 850, `${paragraphOne.length}`);
  const chunks = chunkText(TITLE, `${paragraphOne}\n${paragraphTwo}`);
  t.is(chunks.length, 2);
  t.is(chunks[0]!.text, paragraphOne);
  t.true(chunks[1]!.text.endsWith(`\n${paragraphTwo}`));
});

test('a sentence longer than a chunk is cut between words', (t) => {
  const body = `${sentences(40, 5)
    .map((sentence) => sentence.slice(0, -1).toLowerCase())
    .join(' ')}.`;
  const chunks = chunkText(TITLE, body);
  t.true(chunks.length > 2);
  assertWellFormed(t, body, chunks, DEFAULT_MAX_CHARS, DEFAULT_OVERLAP_CHARS);
  for (const chunk of chunks) {
    for (const word of chunk.text.replace('.', '').split(' ')) t.true(VOCABULARY.includes(word), word);
    t.true(chunk.text.length > DEFAULT_MAX_CHARS - DEFAULT_OVERLAP_CHARS - 20 || chunk === chunks.at(-1));
  }
});

test('a word longer than a chunk, like a URL, is cut hard and nothing is lost', (t) => {
  const url = `https://cdn.shop.example/${'a1b2c3d4'.repeat(300)}`;
  const body = `Download the manual from ${url} today.`;
  const chunks = chunkText(TITLE, body);
  for (const chunk of chunks) t.true(chunk.text.length <= DEFAULT_MAX_CHARS);
  t.deepEqual(
    chunks.map((chunk) => chunk.text),
    ['Download the manual from', url.slice(0, 1000), url.slice(1000, 2000), `${url.slice(2000)} today.`],
  );
});

test('a long word that fits in a chunk is kept whole even if it leaves no room for overlap', (t) => {
  const token = 'x'.repeat(950);
  const chunks = chunkText(TITLE, `Intro sentence. ${token} end.`);
  t.true(chunks.some((chunk) => chunk.text.includes(token)));
  for (const chunk of chunks) t.true(chunk.text.length <= DEFAULT_MAX_CHARS);
});

test('hard cuts never split a surrogate pair', (t) => {
  const chunks = chunkText(TITLE, '😀'.repeat(600), { maxChars: 101, overlapChars: 10 });
  for (const chunk of chunks) t.notRegex(chunk.text, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  t.is(chunks.map((chunk) => chunk.text).join(''), '😀'.repeat(600));
});

test('CJK text is cut after full stops, with no spaces added', (t) => {
  const all = ['今天我们发货。', '退货需要在三十天内完成！', '您有问题吗？', '请联系客服，我们会尽快回复。', '周末也可以下单。'];
  const body = Array.from({ length: 20 }, (_, i) => all[i % all.length]).join('');
  const chunks = chunkText(TITLE, body, { maxChars: 100, overlapChars: 20 });
  t.true(chunks.length > 2);
  for (const chunk of chunks) {
    t.true(chunk.text.length <= 100);
    t.regex(chunk.text, /[。！？]$/);
    t.false(chunk.text.includes(' '));
  }
  for (let i = 1; i < chunks.length; i++) {
    const [previous, current] = [chunks[i - 1]!.text, chunks[i]!.text];
    const repeated = Array.from({ length: 20 }, (_, k) => current.slice(0, k + 1)).filter(
      (head) => /[。！？]$/.test(head) && previous.endsWith(head),
    );
    t.true(repeated.length > 0, `chunk ${i} starts with whole sentences of chunk ${i - 1}`);
  }
});

test('CJK text without full stops is cut between characters', (t) => {
  const body = '我们的仓库每天处理大量订单并且尽快安排快递员取件'.repeat(20);
  const chunks = chunkText(TITLE, body, { maxChars: 100, overlapChars: 20 });
  for (const chunk of chunks) t.true(chunk.text.length <= 100);
  t.true(chunks.length >= Math.ceil(body.length / 80));
  t.true(body.startsWith(chunks[0]!.text) && body.endsWith(chunks.at(-1)!.text));
});

test('chunking is deterministic', (t) => {
  const body = paragraphs(sentences(60, 7));
  t.deepEqual(chunkText(TITLE, body), chunkText(TITLE, body));
});

test('bad options are refused', (t) => {
  t.throws(() => chunkText(TITLE, 'x', { maxChars: 100, overlapChars: 51 }), { instanceOf: RangeError });
  t.throws(() => chunkText(TITLE, 'x', { maxChars: 1 }), { instanceOf: RangeError });
  t.throws(() => chunkText(TITLE, 'x', { overlapChars: -1 }), { instanceOf: RangeError });
  t.throws(() => chunkText(TITLE, 'x', { maxChars: 500.5 }), { instanceOf: RangeError });
});

test('a 100k-character body is chunked in one linear pass and covered end to end', (t) => {
  const all = sentences(1200, 11);
  const body = paragraphs(all);
  t.true(body.length >= 100_000, `${body.length}`);
  const started = performance.now();
  const chunks = chunkText(TITLE, body);
  t.log(`${body.length} characters → ${chunks.length} chunks in ${(performance.now() - started).toFixed(1)} ms`);
  assertWellFormed(t, body, chunks, DEFAULT_MAX_CHARS, DEFAULT_OVERLAP_CHARS);
  t.true(body.startsWith(chunks[0]!.text) && body.endsWith(chunks.at(-1)!.text));
  for (const sentence of all) t.true(chunks.some((chunk) => chunk.text.includes(sentence)));
});

/** A window that counts a word as one token and a digit as one more, with two markers: enough to make chunks overflow. */
const wordWindow = (maxTokens: number) => ({
  maxTokens,
  count: (text: string) => 2 + (text.match(/\S+/g)?.length ?? 0) + (text.match(/\d/g)?.length ?? 0),
});

test('with a token window, every chunk fits it and the body is still covered in order', (t) => {
  // Digits cost extra tokens: the same characters make chunks of very different token counts.
  const all = sentences(200, 5).map((sentence, i) => (i % 3 === 0 ? `${sentence} Order 4711-0815-2342-9001 ships.` : sentence));
  const body = paragraphs(all);
  const window = wordWindow(120);
  const chunks = chunkText(TITLE, body, { tokenWindow: window });
  for (const chunk of chunks) t.true(window.count(chunk.embedText) <= 120, `${window.count(chunk.embedText)} tokens`);
  t.true(chunks.length > chunkText(TITLE, body).length, 'some character-sized chunks had to be cut again');
  chunks.forEach((chunk, i) => {
    t.is(chunk.index, i);
    const start = body.indexOf(chunk.text);
    t.true(
      start >= 0 && isSpaceAt(body, start - 1) && isSpaceAt(body, start + chunk.text.length),
      `chunk ${i} is a slice of whole words`,
    );
  });
  t.true(body.startsWith(chunks[0]!.text) && body.endsWith(chunks.at(-1)!.text));
  for (const sentence of all) t.true(chunks.some((chunk) => chunk.text.includes(sentence)));
});

test('with a token window, text that fits is chunked exactly as without one', (t) => {
  const body = paragraphs(sentences(40, 3));
  t.deepEqual(chunkText(TITLE, body, { tokenWindow: wordWindow(100_000) }), chunkText(TITLE, body));
});

test('a title longer than its quarter of the window is shortened in what is embedded, at a word', (t) => {
  const title = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
  const window = { maxTokens: 100, count: (text: string) => text.split(/\s+/).filter(Boolean).length };
  const [chunk] = chunkText(title, 'A short body.', { tokenWindow: window });
  t.is(chunk!.embedText, `${title.split(' ').slice(0, 25).join(' ')}\n\nA short body.`);
});

test('with the real MiniLM tokenizer, number-heavy chunks fit its 256 tokens', async (t) => {
  const { loadMiniLmEmbedder } = await import('../embeddings/minilm/minilm-embedder.js');
  const { defaultModelDir } = await import('../embeddings/minilm/model-files.js');
  const { tokenWindow } = await loadMiniLmEmbedder(defaultModelDir());
  const body = Array.from(
    { length: 60 },
    (_, i) => `SKU ${1000 + i}-${(i * 7919) % 10000}-XL fits sizes 38–${40 + (i % 6)}.`,
  ).join(' ');
  const chunks = chunkText('Size chart', body, { tokenWindow });
  t.true(tokenWindow!.count(chunkText('Size chart', body)[0]!.embedText) > 256, 'the test body overflows character-sized chunks');
  for (const chunk of chunks) t.true(tokenWindow!.count(chunk.embedText) <= 256);
});
