/**
 * Question vectors as the content gaps keep them: unit length, Float32, stored as base64 of their
 * little-endian bytes (384 dimensions: 2 kB of text rather than 8 kB of JSON numbers).
 */

export function unitVector(values: ArrayLike<number>): Float32Array {
  const vector = new Float32Array(values.length);
  for (let i = 0; i < vector.length; i++) vector[i] = values[i]!;
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

export function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function decodeVector(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  // On a little-endian machine (every one we run on) the bytes are the array's own: one copy.
  if (littleEndian) return new Float32Array(new Uint8Array(bytes).buffer);
  const vector = new Float32Array(bytes.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  return vector;
}

/** The dot product (cosine similarity of unit vectors), four at a time: the clustering's inner loop. */
export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < n; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + s2 + s3;
}

/** Writes `sum` scaled to unit length into `into`. */
export function normalizeInto(into: Float32Array, sum: Float64Array): void {
  let norm = 0;
  for (let i = 0; i < sum.length; i++) norm += sum[i]! * sum[i]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < sum.length; i++) into[i] = sum[i]! * scale;
}

/** The embedding space a vector belongs to, as stored beside it. */
export function spaceKey(space: { provider: string; model: string; dimensions: number }): string {
  return `${space.provider}/${space.model}/${space.dimensions}`;
}
