import type { Embedder, EmbeddingSpace } from './embedder.js';
import { FeatureCounts } from './feature-counts.js';

/**
 * The default embedder: no model, no network. It hashes the lexical features of a text (words, word
 * pairs and the character trigrams of each word) into a fixed number of signed buckets, so texts
 * that share words or word fragments ("running shoes" and "shoe for runners") point the same way.
 *
 * Stored vectors are only comparable with vectors made by the same algorithm: any change to the
 * features, weights or hash must come with a new model name.
 */
export const hashedModel = 'hashed-ngrams-v1';
export const defaultHashedDimensions = 512;

// How much each kind of feature counts, tuned on product and help-centre texts. Trigrams carry most
// of the weight (a word of n letters has n of them): they are what lets inflections and compounds
// ("runners" and "running", "zurück" and "zurücksetzen") meet, while exact word matches, which
// share every trigram as well as the word, still score highest. BM25 covers exact words anyway.
const unigramWeight = 1;
const bigramWeight = 0.5;
const trigramWeight = 0.6;

// Feature kinds seed the hash so that the word "abc" and the trigram "abc" are different features.
const unigramKind = 1;
const bigramKind = 2;
const trigramKind = 3;
// The edges of a padded word (`^word$`); no letter or digit has these code units.
const wordStart = 0x02;
const wordEnd = 0x03;
const bigramSeparator = 0x20;

// Letters and digits of any script; combining marks too, since in scripts such as Devanagari they
// are part of the word rather than separators.
const wordPattern = /[\p{L}\p{M}\p{N}]+/gu;

export function createHashedEmbedder(dimensions = defaultHashedDimensions): Embedder {
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new RangeError(`the local embedder needs a positive whole number of dimensions, not ${dimensions}`);
  }
  const space: EmbeddingSpace = { provider: 'local', model: hashedModel, dimensions };
  // One table per embedder, reused for every text; safe because embedding a text is synchronous.
  const counts = new FeatureCounts();
  const words = new RegExp(wordPattern);
  return {
    space,
    async embed(texts) {
      return texts.map((text) => embedText(text, dimensions, counts, words));
    },
  };
}

function embedText(text: string, dimensions: number, counts: FeatureCounts, words: RegExp): number[] {
  const normalized = text.normalize('NFKC').toLowerCase();
  counts.clear();
  words.lastIndex = 0;
  let previousStart = -1;
  let previousEnd = -1;
  for (let match = words.exec(normalized); match !== null; match = words.exec(normalized)) {
    const start = match.index;
    const end = start + match[0].length;
    counts.add(finish(hashRange(normalized, start, end, step(offsetBasis, unigramKind))), unigramWeight);
    if (previousStart >= 0) {
      const first = hashRange(normalized, previousStart, previousEnd, step(offsetBasis, bigramKind));
      counts.add(finish(hashRange(normalized, start, end, step(first, bigramSeparator))), bigramWeight);
    }
    addTrigrams(normalized, start, end, counts);
    previousStart = start;
    previousEnd = end;
  }

  const vector = new Float64Array(dimensions);
  for (let entry = 0; entry < counts.size; entry++) {
    const key = counts.keys[entry]!;
    // Sublinear term frequency: the tenth "shoe" says less than the first.
    const count = counts.counts[entry]!;
    const weight = count === 1 ? counts.weights[entry]! : counts.weights[entry]! * (1 + Math.log(count));
    // Bucket from the low bits, sign from the top bit, so collisions cancel out on average.
    vector[(key >>> 0) % dimensions]! += key < 0 ? -weight : weight;
  }
  return normalize(vector);
}

/** The trigrams of `^word$`, hashed without building the padded string. */
function addTrigrams(text: string, start: number, end: number, counts: FeatureCounts): void {
  const seed = step(offsetBasis, trigramKind);
  let a = wordStart;
  let b = text.charCodeAt(start);
  for (let i = start + 1; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : wordEnd;
    counts.add(finish(step(step(step(seed, a), b), c)), trigramWeight);
    a = b;
    b = c;
  }
}

function normalize(vector: Float64Array): number[] {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  // A text without a single letter or digit has no features: it stays the zero vector.
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  const result = new Array<number>(vector.length);
  for (let i = 0; i < vector.length; i++) result[i] = vector[i]! * scale;
  return result;
}

// FNV-1a over UTF-16 code units, finished with murmur3's avalanche so every bit of the key is usable
// for both the bucket and the sign. Math.imul keeps it exact and identical in every process.
const offsetBasis = 0x811c9dc5 | 0;

function step(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

function hashRange(text: string, start: number, end: number, hash: number): number {
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

function finish(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}
