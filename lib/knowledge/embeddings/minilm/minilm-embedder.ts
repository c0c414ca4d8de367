import { startThread } from '#platform/threads/thread.js';
import type { Embedder, EmbeddingSpace, TokenWindow } from '../embedder.js';
import { createLaneQueue, type LaneObserver } from './model-lanes.js';
import { loadedFiles, pinnedModel, verifyModelFiles } from './model-files.js';
import { dimensions, loadTokenizer, maxTokens } from './model-runner.js';

export interface MiniLmOptions {
  /**
   * Model sessions, each on a thread of its own, and onnxruntime threads per session. Measured on
   * two cores (docs/embeddings.md): one session of two threads answers a single text at least as
   * soon; two of one thread each embed an eighth to a quarter more chunks a second, the model alone.
   */
  sessions: number;
  threadsPerSession: number;
  /** Told of every model call (the metrics); the first load of a folder in a process keeps it. */
  observer?: LaneObserver;
}

export const defaultMiniLmOptions: MiniLmOptions = { sessions: 1, threadsPerSession: 2 };

/**
 * The default embedder: all-MiniLM-L6-v2, a sentence-embedding model that places texts of the same
 * meaning close together ("reset my password" and "recover account access" share no word and still
 * meet). It runs in-process on the CPU with onnxruntime (`model-runner.ts`), on threads of its own:
 * a model run takes from a few to tens of milliseconds and blocks its thread, and the event loop
 * meanwhile serves requests and Temporal's tasks. Inputs wait in lanes (`model-lanes.ts`): a
 * visitor's question first, then a person's change, then imports.
 *
 * English only. Texts longer than the model's window are cut to it: chunking keeps every chunk
 * inside the window (see `tokenWindow`), so only an overlong query is ever cut.
 */
export function loadMiniLmEmbedder(modelDir: string, options: MiniLmOptions = defaultMiniLmOptions): Promise<Embedder> {
  // Loaded once per folder and process: checking 59 MB of weights and building a session take a
  // fraction of a second and over 100 MB each, and a process may wire several users of the model.
  const key = `${modelDir}|${options.sessions}|${options.threadsPerSession}`;
  let loading = loaded.get(key);
  if (!loading) {
    loading = load(modelDir, options);
    loaded.set(key, loading);
    loading.catch(() => loaded.delete(key));
  }
  return loading;
}

const loaded = new Map<string, Promise<Embedder>>();

/**
 * Texts of one call to the model's thread: one, so that a question or a person's change waits at most
 * for the two calls handed to the thread (the one running and the next), a few tens of milliseconds,
 * however many an import has waiting; a call costs the thread a message (a fraction of a millisecond).
 */
const textsPerCall = 1;

async function load(modelDir: string, { sessions, threadsPerSession, observer }: MiniLmOptions): Promise<Embedder> {
  await verifyModelFiles(modelDir, loadedFiles);
  // Counting tokens is synchronous and cheap (chunking asks it often): this thread has the tokenizer too.
  const tokenizer = loadTokenizer(modelDir);
  const tokenWindow: TokenWindow = {
    maxTokens,
    count: (text) => tokenizer.encode(text).ids.length,
  };
  const thread = startThread<{ texts: string[] }, Float64Array>(
    new URL('./model-thread', import.meta.url),
    { modelDir, sessionThreads: threadsPerSession },
    { threads: sessions, tasksPerThread: 2 },
  );
  // A session that cannot be built fails the load, not a first request.
  await Promise.all(Array.from({ length: sessions }, () => thread.run({ texts: [''] })));
  const queue = createLaneQueue(
    async (texts) => {
      const result = await thread.run({ texts });
      return { vectors: result.subarray(0, -1), seconds: result.at(-1)! / 1000 };
    },
    { textsPerCall, callsInFlight: 2 * sessions, dimensions, ...(observer ? { observer } : {}) },
  );
  const space: EmbeddingSpace = { provider: 'local', model: pinnedModel.name, dimensions };

  return {
    space,
    tokenWindow,
    async embed(texts, { lane = 'bulk' } = {}) {
      const rows = await queue.submit(texts, lane);
      return rows.map((vector) => Array.from(vector));
    },
  };
}
