import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { cosineSimilarity } from '../search.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { createEmbedder } from './index.js';

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
}

/** cosineSimilarity(anchor, related) and cosineSimilarity(anchor, unrelated). */
async function similarities(anchor: string, related: string, unrelated: string) {
  const [a, r, u] = await createHashedEmbedder().embed([anchor, related, unrelated]);
  return { related: cosineSimilarity(a!, r!), unrelated: cosineSimilarity(a!, u!) };
}

test('the space names the algorithm, and vectors have the configured length and unit norm', async (t) => {
  const embedder = await createEmbedder({ provider: 'hashed', dimensions: 256 });
  t.deepEqual(embedder.space, { provider: 'local', model: 'hashed-ngrams-v1', dimensions: 256 });
  const vectors = await embedder.embed(['Waterproof hiking boots', 'Kurze Antwort', '東京の天気']);
  t.is(vectors.length, 3);
  for (const vector of vectors) {
    t.is(vector.length, 256);
    t.true(Math.abs(norm(vector) - 1) < 1e-9);
  }
  t.deepEqual(createHashedEmbedder().space.dimensions, 512);
});

test('the same text gives the same vector, whatever it is batched with', async (t) => {
  const embedder = createHashedEmbedder();
  const [alone] = await embedder.embed(['Return any item within 30 days']);
  const [, inBatch] = await embedder.embed(['Something else entirely', 'Return any item within 30 days']);
  t.deepEqual(alone, inBatch);
  t.deepEqual(alone, (await createHashedEmbedder().embed(['Return any item within 30 days']))[0]);
});

test('vectors are identical in another process', async (t) => {
  const text = 'Café crème, Größe XL — naïve façade №5';
  const [here] = await createHashedEmbedder().embed([text]);
  const module = fileURLToPath(new URL('./hashed-embedder.ts', import.meta.url));
  const script = `import { createHashedEmbedder } from ${JSON.stringify(module)};
    const [v] = await createHashedEmbedder().embed([${JSON.stringify(text)}]);
    process.stdout.write(JSON.stringify(v));`;
  const child = spawnSync(process.execPath, ['--import=tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  t.is(child.status, 0, child.stderr);
  t.deepEqual(JSON.parse(child.stdout), here);
});

test('shared word fragments score clearly higher than unrelated text', async (t) => {
  const { related, unrelated } = await similarities('running shoes', 'shoe for runners', 'chocolate cake recipe');
  t.true(related > 0.15, `related ${related}`);
  t.true(related > unrelated + 0.1, `related ${related}, unrelated ${unrelated}`);
});

test('product descriptions are closer to similar products than to other ones', async (t) => {
  const { related, unrelated } = await similarities(
    'Waterproof hiking boots with Vibram soles and a leather upper',
    'Leather hiking boot, waterproof, for mountain trails',
    'Stainless steel kitchen knife set with a wooden block',
  );
  t.true(related > unrelated + 0.2, `related ${related}, unrelated ${unrelated}`);
});

test('a question is closer to the help article that answers it', async (t) => {
  const cases: [string, string, string][] = [
    [
      'How do I reset my password?',
      'To reset your password, open Settings, choose Account, then select Reset password.',
      'Orders ship within two business days to addresses in the EU and the UK.',
    ],
    [
      'Can I get a refund if I return the item?',
      'Our return policy: you can return any item within 30 days for a full refund.',
      'The wireless headphones have active noise cancelling and a 20-hour battery.',
    ],
    ['Passwort zurücksetzen', 'Wie setze ich mein Passwort zurück?', 'Lieferzeiten für internationale Bestellungen'],
  ];
  for (const [question, answer, other] of cases) {
    const { related, unrelated } = await similarities(question, answer, other);
    t.true(related > unrelated + 0.15, `${question}: related ${related}, unrelated ${unrelated}`);
  }
});

test('case and Unicode compatibility forms do not matter', async (t) => {
  const [plain, shouted, fullWidth] = await createHashedEmbedder().embed(['wifi setup', 'WIFI SETUP', 'ｗｉｆｉ ｓｅｔｕｐ']);
  t.deepEqual(shouted, plain);
  t.deepEqual(fullWidth, plain);
});

test('text without letters or digits gives a finite zero vector', async (t) => {
  for (const vector of await createHashedEmbedder(64).embed(['', '   \n\t', '!?… —'])) {
    t.is(vector.length, 64);
    t.true(vector.every((x) => x === 0));
  }
});

test('long texts grow the feature table without changing the result of short ones', async (t) => {
  const embedder = createHashedEmbedder();
  const [before] = await embedder.embed(['battery life']);
  const long = Array.from({ length: 20_000 }, (_, i) => `word${i}`).join(' ');
  const [vector] = await embedder.embed([long]);
  t.true(vector!.every(Number.isFinite));
  t.true(Math.abs(norm(vector!) - 1) < 1e-9);
  t.deepEqual((await embedder.embed(['battery life']))[0], before);
});

test('a dimension count that is not a positive whole number is refused', (t) => {
  t.throws(() => createHashedEmbedder(0), { instanceOf: RangeError });
  t.throws(() => createHashedEmbedder(12.5), { instanceOf: RangeError });
});
