import { workerData } from 'node:worker_threads';
import { move } from 'piscina';
import { createModelRunner } from './model-runner.js';

/*
 * The thread the local model runs on (a Piscina worker, started by `minilm-embedder.ts`): each task
 * is a list of texts, each result their vectors, moved back to the caller's thread without a copy.
 */

const runModel = await createModelRunner((workerData as { modelDir: string }).modelDir);

export default async function embedTexts({ texts }: { texts: string[] }) {
  return move(await runModel(texts));
}
