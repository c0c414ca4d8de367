import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import ort from 'onnxruntime-node';
import { pinnedModel } from './model-files.js';
import { meanPooled, runOf, type SpecialTokens } from './model-runs.js';

/** The model was trained on at most this many word pieces, [CLS] and [SEP] included. */
export const maxTokens = 256;
export const dimensions = 384;

/** The model's own tokenizer, from its folder. */
export function loadTokenizer(modelDir: string): Tokenizer {
  return new Tokenizer(
    JSON.parse(readFileSync(join(modelDir, 'tokenizer.json'), 'utf8')),
    JSON.parse(readFileSync(join(modelDir, 'tokenizer_config.json'), 'utf8')),
  );
}

/** Texts in; their vectors out, `dimensions` numbers each, one after the other in input order. */
export type ModelRunner = (texts: string[]) => Promise<Float64Array>;

export interface RunnerOptions {
  /** onnxruntime's threads for one run (intra-op). */
  threads: number;
}

/**
 * all-MiniLM-L6-v2 under onnxruntime. A text's vector is the mean of its token outputs, [CLS] and
 * [SEP] included, L2-normalised, so cosine similarity is a dot product.
 *
 * Each text is a model run of its own. The int8 model quantises a run's activations with one scale
 * for the whole run, padding included, so a text run beside others would get another vector (cosine
 * 0.98 against itself alone); and on two cores runs of one cost no more per text than a few together
 * (larger batches cost up to half as much again: their activations fall out of the cache).
 *
 * onnxruntime-node computes a run synchronously on the calling thread, so whoever calls this runs it
 * on a thread of its own (`model-thread.ts`): on the main thread every run would stop the event loop.
 */
export async function createModelRunner(modelDir: string, { threads }: RunnerOptions): Promise<ModelRunner> {
  const tokenizer = loadTokenizer(modelDir);
  const session = await ort.InferenceSession.create(join(modelDir, pinnedModel.onnxFile), {
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    intraOpNumThreads: threads,
    // Threads sleep between runs instead of spinning: the process shares its cores with Weaviate,
    // Redis and the event loop, and a run's latency is the same either way (measured).
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  });
  const [cls, sep] = tokenizer.encode('').ids as [number, number];
  const special: SpecialTokens = { cls, sep };
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids;

  return async (texts) => {
    const vectors = new Float64Array(texts.length * dimensions);
    for (const [row, text] of texts.entries()) {
      const ids = runOf(text, encode, special, maxTokens);
      const shape = [1, ids.length];
      const output = await session.run({
        input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), shape),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), shape),
        // One sequence: every token is of type 0.
        token_type_ids: new ort.Tensor('int64', new BigInt64Array(ids.length), shape),
      });
      meanPooled(
        output.last_hidden_state!.data as Float32Array,
        ids.length,
        dimensions,
        vectors.subarray(row * dimensions, (row + 1) * dimensions),
      );
    }
    return vectors;
  };
}
