import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import ort from 'onnxruntime-node';

/** The model was trained on at most this many word pieces, [CLS] and [SEP] included. */
export const maxTokens = 256;
export const dimensions = 384;
/** Texts of one model run; a batch pads to its longest member, so texts are grouped by length first. */
const microBatch = 16;

/** The model's own tokenizer, from its folder. */
export function loadTokenizer(modelDir: string): Tokenizer {
  return new Tokenizer(
    JSON.parse(readFileSync(join(modelDir, 'tokenizer.json'), 'utf8')),
    JSON.parse(readFileSync(join(modelDir, 'tokenizer_config.json'), 'utf8')),
  );
}

/** Texts in; their vectors out, `dimensions` numbers each, one after the other in input order. */
export type ModelRunner = (texts: string[]) => Promise<Float64Array>;

/**
 * all-MiniLM-L6-v2 under onnxruntime. A sentence vector is the attention-masked mean of the token
 * vectors, L2-normalised, so cosine similarity is a dot product. Texts longer than the window are
 * cut to it (chunking keeps chunks inside it, so only an overlong query is ever cut).
 *
 * onnxruntime-node computes a run synchronously on the calling thread, so whoever calls this runs it
 * on a thread of its own (`model-thread.ts`): on the main thread every run would stop the event loop.
 */
export async function createModelRunner(modelDir: string): Promise<ModelRunner> {
  const tokenizer = loadTokenizer(modelDir);
  const session = await ort.InferenceSession.create(join(modelDir, 'onnx', 'model_q4.onnx'), {
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Threads sleep between runs instead of spinning: the process shares its cores with Weaviate,
    // Redis and the event loop, and a run's latency is the same either way (measured).
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  });
  const encode = (text: string) => truncated(tokenizer.encode(text, { return_token_type_ids: true }));

  /** One run of encodings; each row's vector is written to `vectors` at its index in `rows`. */
  async function run(encodings: Encoding[], rows: number[], vectors: Float64Array): Promise<void> {
    const length = Math.max(...encodings.map((encoding) => encoding.ids.length));
    const size = encodings.length * length;
    const ids = new BigInt64Array(size);
    const mask = new BigInt64Array(size);
    const types = new BigInt64Array(size);
    encodings.forEach((encoding, row) => {
      for (let i = 0; i < encoding.ids.length; i++) {
        ids[row * length + i] = BigInt(encoding.ids[i]!);
        mask[row * length + i] = 1n;
        types[row * length + i] = BigInt(encoding.token_type_ids[i]!);
      }
    });
    const shape = [encodings.length, length];
    const output = await session.run({
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
      token_type_ids: new ort.Tensor('int64', types, shape),
    });
    const hidden = output.last_hidden_state!.data as Float32Array;
    encodings.forEach((encoding, row) =>
      meanPooled(hidden, row, length, encoding.ids.length, vectors.subarray(rows[row]! * dimensions)),
    );
  }

  return async (texts) => {
    const encodings = texts.map(encode);
    const vectors = new Float64Array(texts.length * dimensions);
    // Similar lengths share a run, so little of it is padding; vectors keep the input order.
    const order = texts.map((_, i) => i).sort((a, b) => encodings[a]!.ids.length - encodings[b]!.ids.length);
    for (let start = 0; start < order.length; start += microBatch) {
      const rows = order.slice(start, start + microBatch);
      await run(
        rows.map((i) => encodings[i]!),
        rows,
        vectors,
      );
    }
    return vectors;
  };
}

interface Encoding {
  ids: number[];
  token_type_ids: number[];
}

/** Keeps [CLS], the first word pieces and [SEP] of a text longer than the window. */
function truncated<T extends Encoding>(encoding: T): T {
  if (encoding.ids.length <= maxTokens) return encoding;
  const keep = (values: number[]) => [...values.slice(0, maxTokens - 1), values.at(-1)!];
  return { ...encoding, ids: keep(encoding.ids), token_type_ids: keep(encoding.token_type_ids) };
}

/** The mean of a row's token vectors (padding excluded), scaled to length 1, written to `into`. */
function meanPooled(hidden: Float32Array, row: number, length: number, tokens: number, into: Float64Array): void {
  const sum = new Float64Array(dimensions);
  const base = row * length * dimensions;
  for (let t = 0; t < tokens; t++) {
    const offset = base + t * dimensions;
    for (let d = 0; d < dimensions; d++) sum[d]! += hidden[offset + d]!;
  }
  let norm = 0;
  for (let d = 0; d < dimensions; d++) norm += sum[d]! * sum[d]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let d = 0; d < dimensions; d++) into[d] = sum[d]! * scale;
}
