import { createHash } from 'node:crypto';

/*
 * The vectors of a chunk's sentences, embedded once at ingestion and kept beside the chunk, so that
 * an answer embeds its question and nothing else: the evidence rule and the composer compare the
 * question with every sentence of the passages they read, and embedding those at answer time is
 * most of a cold answer's time.
 *
 * Each vector is kept under a digest of the exact text that was embedded, and found by the text the
 * answerer would embed now. A sentence cut or prefixed differently from when the chunk was written
 * (after a change to the composer, or a new title) is simply not found and is embedded then; a
 * vector is never paired with a text it was not computed from.
 *
 * Stored as one Weaviate blob per chunk: the dimensions (uint32), then per text its 8-byte digest and
 * its vector as float32, little-endian.
 */

/** A chunk's sentence vectors, looked up by the text the answerer embeds. */
export class SentenceVectors {
  readonly #byDigest: ReadonlyMap<string, number[]>;

  constructor(byDigest: ReadonlyMap<string, number[]>) {
    this.#byDigest = byDigest;
  }

  /** The vector stored for exactly this text, if any. */
  get(text: string): number[] | undefined {
    return this.#byDigest.get(digestOf(text));
  }

  get size(): number {
    return this.#byDigest.size;
  }

  /** The vectors of a passage merged from several chunks; undefined when none of them has any. */
  static merged(chunks: Array<SentenceVectors | undefined>): SentenceVectors | undefined {
    const present = chunks.filter((chunk): chunk is SentenceVectors => chunk !== undefined && chunk.size > 0);
    if (present.length <= 1) return present[0];
    return new SentenceVectors(new Map(present.flatMap((chunk) => [...chunk.#byDigest])));
  }

  static readonly none = new SentenceVectors(new Map());
}

const digestBytes = 8;
const headerBytes = 4;

function digestOf(text: string): string {
  return createHash('sha256')
    .update(text)
    .digest('hex')
    .slice(0, digestBytes * 2);
}

/** The blob of `texts` and their `vectors` (same order, equal dimensions). */
export function encodeSentenceVectors(texts: string[], vectors: number[][]): string {
  if (texts.length !== vectors.length) throw new Error(`${vectors.length} vectors for ${texts.length} texts`);
  const dimensions = vectors[0]?.length ?? 0;
  const entryBytes = digestBytes + 4 * dimensions;
  const bytes = Buffer.alloc(headerBytes + texts.length * entryBytes);
  bytes.writeUInt32LE(dimensions, 0);
  texts.forEach((text, i) => {
    const vector = vectors[i]!;
    if (vector.length !== dimensions) throw new Error(`a vector of ${vector.length} dimensions among ones of ${dimensions}`);
    const at = headerBytes + i * entryBytes;
    bytes.write(digestOf(text), at, 'hex');
    vector.forEach((value, d) => bytes.writeFloatLE(value, at + digestBytes + 4 * d));
  });
  return bytes.toString('base64');
}

/** What `encodeSentenceVectors` wrote; nothing for a blob that is missing or not of this shape. */
export function decodeSentenceVectors(blob: string | undefined | null): SentenceVectors {
  if (!blob) return SentenceVectors.none;
  const bytes = Buffer.from(blob, 'base64');
  if (bytes.length < headerBytes) return SentenceVectors.none;
  const dimensions = bytes.readUInt32LE(0);
  const entryBytes = digestBytes + 4 * dimensions;
  if (dimensions === 0 || (bytes.length - headerBytes) % entryBytes !== 0) return SentenceVectors.none;
  const byDigest = new Map<string, number[]>();
  for (let at = headerBytes; at < bytes.length; at += entryBytes) {
    const vector = new Array<number>(dimensions);
    for (let d = 0; d < dimensions; d++) vector[d] = bytes.readFloatLE(at + digestBytes + 4 * d);
    byDigest.set(bytes.toString('hex', at, at + digestBytes), vector);
  }
  return new SentenceVectors(byDigest);
}
