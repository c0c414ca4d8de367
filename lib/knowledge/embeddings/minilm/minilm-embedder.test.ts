import test from 'ava';
import { loadMiniLmEmbedder } from './minilm-embedder.js';
import { defaultModelDir } from './model-files.js';

const embedder = loadMiniLmEmbedder(defaultModelDir());
const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

test('the space names the pinned model; vectors have 384 dimensions and unit length', async (t) => {
  const model = await embedder;
  t.deepEqual(model.space, { provider: 'local', model: 'all-MiniLM-L6-v2-int8', dimensions: 384 });
  for (const vector of await model.embed(['Waterproof hiking boots', ''])) {
    t.is(vector.length, 384);
    t.true(Math.abs(dot(vector, vector) - 1) < 1e-5);
  }
});

test('texts of the same meaning meet although they share no word', async (t) => {
  const [question, paraphrase, unrelated] = await (
    await embedder
  ).embed(['How do I reset my password?', 'Steps to recover account access when you forgot your login', 'The shop opens at 9am']);
  t.true(dot(question!, paraphrase!) > 0.5, `paraphrase ${dot(question!, paraphrase!)}`);
  t.true(dot(question!, unrelated!) < 0.2, `unrelated ${dot(question!, unrelated!)}`);
});

test('the genuine weights: the sentence-transformers example within the int8 drift', async (t) => {
  const model = await embedder;
  // Each text in a run of its own: an int8 vector moves a little with its company (next test), and
  // this is about the weights.
  const [weather, sunny, stadium] = await Promise.all(
    ['The weather is lovely today.', "It's so sunny outside!", 'He drove to the stadium.'].map(
      async (text) => (await model.embed([text]))[0]!,
    ),
  );
  // Published fp32 figures: 0.6660 and 0.1046. Our int8 conversion gave 0.6698 and 0.1182 on an AVX2
  // CPU without VNNI (the 4-bit model it is made from 0.6679 and 0.1169), and 0.6559 and 0.1375 on an
  // AVX-512 CPU with VNNI, whose int8 kernels round otherwise. The bound leaves room for the CPUs'
  // kernels, not for wrong weights, which move these figures by tenths.
  t.true(Math.abs(dot(weather!, sunny!) - 0.666) < 0.045, `weather/sunny ${dot(weather!, sunny!)}`);
  t.true(Math.abs(dot(weather!, stadium!) - 0.1046) < 0.045, `weather/stadium ${dot(weather!, stadium!)}`);
});

// The int8 model quantises a call's activations with one scale for the whole call, padding included,
// so a text run beside others would get another vector ("short" beside these: cosine 0.979 with
// itself alone): the runner runs one text per call, and every text its own vector whatever it is sent with.
test('a text gets the same vector alone and sent with texts of other lengths', async (t) => {
  const model = await embedder;
  const texts = ['short', 'a somewhat longer sentence about tents and sleeping bags', 'mid length text here'];
  const batch = await model.embed(texts);
  for (const [i, text] of texts.entries()) {
    const [alone] = await model.embed([text]);
    t.true(dot(alone!, batch[i]!) > 0.9999, text);
  }
});

test('the token window counts the model’s word pieces; a text beyond it is read up to the window', async (t) => {
  const model = await embedder;
  t.is(model.tokenWindow!.maxTokens, 256);
  t.is(model.tokenWindow!.count('hello world'), 4, '[CLS] hello world [SEP]');
  const long = 'tent '.repeat(300) + 'kayak';
  const [cut, window] = await model.embed([long, 'tent '.repeat(254)]);
  t.true(dot(cut!, window!) > 0.999, 'what lies beyond the window does not change the vector');
});

test('the model runs on a thread of its own: the event loop stays free during a long run', async (t) => {
  const model = await embedder;
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 5);
  // One run of 16 texts at the window's full length: half a second or more on two cores, in which a
  // run on this thread would let no timer fire.
  const vectors = await model.embed(Array.from({ length: 16 }, (_, i) => `${i} ${'tent pole sleeping bag '.repeat(60)}`));
  clearInterval(ticking);
  t.is(vectors.length, 16);
  t.true(ticks >= 10, `${ticks} timer ticks during the run`);
});
