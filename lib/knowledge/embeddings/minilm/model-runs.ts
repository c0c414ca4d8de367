/*
 * How texts become model runs and their outputs vectors, without the model: a text is one run,
 * [CLS], its word pieces, [SEP]; its vector the mean of the run's outputs, scaled to length one.
 */

/** Word-piece ids of a text, without [CLS] and [SEP]. */
export type EncodeBare = (text: string) => number[];

export interface SpecialTokens {
  cls: number;
  sep: number;
}

/**
 * The word pieces the model reads of `text` within a window of `maxTokens`, [CLS] and [SEP]
 * included. A text longer than the window keeps its first pieces (chunking keeps chunks inside it,
 * so only an overlong query is ever cut).
 */
export function runOf(text: string, encode: EncodeBare, special: SpecialTokens, maxTokens: number): number[] {
  return [special.cls, ...encode(text).slice(0, maxTokens - 2), special.sep];
}

/**
 * The L2-normalised mean of the first `length` outputs of a run (`hidden`: positions ×
 * `dimensions`), written to `into`.
 */
export function meanPooled(hidden: Float32Array, length: number, dimensions: number, into: Float64Array): void {
  into.fill(0);
  for (let t = 0; t < length; t++) {
    const offset = t * dimensions;
    for (let d = 0; d < dimensions; d++) into[d]! += hidden[offset + d]!;
  }
  let norm = 0;
  for (let d = 0; d < dimensions; d++) norm += into[d]! * into[d]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let d = 0; d < dimensions; d++) into[d]! *= scale;
}
