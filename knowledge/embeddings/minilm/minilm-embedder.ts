import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import ort from 'onnxruntime-node';
import type { Embedder, EmbeddingSpace, TokenWindow } from '../embedder.js';
import { pinnedModel, verifyModelFiles } from './model-files.js';

/** The model was trained on at most this many word pieces, [CLS] and [SEP] included. */
const maxTokens = 256;
const dimensions = 384;
/** Texts of one model run; a batch pads to its longest member, so texts are grouped by length first. */
const microBatch = 16;

/**
 * The default embedder: all-MiniLM-L6-v2, a sentence-embedding model that places texts of the same
 * meaning close together ("reset my password" and "recover account access" share no word and still
 * meet). It runs in-process on the CPU with onnxruntime; a sentence vector is the attention-masked
 * mean of the token vectors, L2-normalised, so cosine similarity is a dot product.
 *
 * English only. Texts longer than the model's window are cut to it: chunking keeps every chunk
 * inside the window (see `tokenWindow`), so only an overlong query is ever cut.
 */
export function loadMiniLmEmbedder(modelDir: string): Promise<Embedder> {
  // Loaded once per folder and process: checking 53 MB of weights and building a session take a
  // fraction of a second and 140 MB each, and a process may wire several users of the model.
  let loading = loaded.get(modelDir);
  if (!loading) {
    loading = load(modelDir);
    loaded.set(modelDir, loading);
    loading.catch(() => loaded.delete(modelDir));
  }
  return loading;
}

const loaded = new Map<string, Promise<Embedder>>();

async function load(modelDir: string): Promise<Embedder> {
  await verifyModelFiles(modelDir);
  const tokenizer = new Tokenizer(
    JSON.parse(readFileSync(join(modelDir, 'tokenizer.json'), 'utf8')),
    JSON.parse(readFileSync(join(modelDir, 'tokenizer_config.json'), 'utf8')),
  );
  const session = await ort.InferenceSession.create(join(modelDir, 'onnx', 'model_q4.onnx'), {
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Threads sleep between runs instead of spinning: the process shares its cores with Weaviate,
    // Redis and the event loop, and a run's latency is the same either way (measured).
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  });
  const space: EmbeddingSpace = { provider: 'local', model: pinnedModel.name, dimensions };

  const encode = (text: string) => tokenizer.encode(text, { return_token_type_ids: true });
  const tokenWindow: TokenWindow = { maxTokens, count: (text) => encode(text).ids.length };

  async function run(encodings: Array<ReturnType<typeof encode>>): Promise<number[][]> {
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
    return encodings.map((encoding, row) => meanPooled(hidden, row, length, encoding.ids.length));
  }

  return {
    space,
    tokenWindow,
    async embed(texts) {
      const encodings = texts.map((text) => truncated(encode(text)));
      // Similar lengths share a run, so little of it is padding; results go back in input order.
      const order = texts.map((_, i) => i).sort((a, b) => encodings[a]!.ids.length - encodings[b]!.ids.length);
      const vectors = new Array<number[]>(texts.length);
      for (let start = 0; start < order.length; start += microBatch) {
        const rows = order.slice(start, start + microBatch);
        const embedded = await run(rows.map((i) => encodings[i]!));
        rows.forEach((i, k) => (vectors[i] = embedded[k]!));
      }
      return vectors;
    },
  };
}

/** Keeps [CLS], the first word pieces and [SEP] of a text longer than the window. */
function truncated<T extends { ids: number[]; token_type_ids: number[] }>(encoding: T): T {
  if (encoding.ids.length <= maxTokens) return encoding;
  const keep = (values: number[]) => [...values.slice(0, maxTokens - 1), values.at(-1)!];
  return { ...encoding, ids: keep(encoding.ids), token_type_ids: keep(encoding.token_type_ids) };
}

/** The mean of a row's token vectors (padding excluded), scaled to length 1. */
function meanPooled(hidden: Float32Array, row: number, length: number, tokens: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const base = row * length * dimensions;
  for (let t = 0; t < tokens; t++) {
    const offset = base + t * dimensions;
    for (let d = 0; d < dimensions; d++) vector[d]! += hidden[offset + d]!;
  }
  let norm = 0;
  for (let d = 0; d < dimensions; d++) norm += vector[d]! * vector[d]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return vector.map((value) => value * scale);
}
