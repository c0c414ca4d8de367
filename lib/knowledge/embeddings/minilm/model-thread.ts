import { workerData } from 'node:worker_threads';
import { move } from 'piscina';
import { createModelRunner } from './model-runner.js';

/*
 * A thread the local model runs on (a Piscina worker, started by `minilm-embedder.ts`): each task
 * is a list of texts, each result their vectors followed by the milliseconds
 * the model took, moved back to the caller's thread without a copy.
 */

const { modelDir, sessionThreads } = workerData as { modelDir: string; sessionThreads: number };
const runModel = await createModelRunner(modelDir, { threads: sessionThreads });

export default async function embedTexts({ texts }: { texts: string[] }) {
  const started = performance.now();
  const vectors = await runModel(texts);
  const result = new Float64Array(vectors.length + 1);
  result.set(vectors);
  result[vectors.length] = performance.now() - started;
  return move(result);
}
