import { startThread } from '#platform/threads/thread.js';
import type { Embedder, EmbeddingSpace, TokenWindow } from '../embedder.js';
import { pinnedModel, verifyModelFiles } from './model-files.js';
import { dimensions, loadTokenizer, maxTokens } from './model-runner.js';

/**
 * The default embedder: all-MiniLM-L6-v2, a sentence-embedding model that places texts of the same
 * meaning close together ("reset my password" and "recover account access" share no word and still
 * meet). It runs in-process on the CPU with onnxruntime (`model-runner.ts`), on a thread of its own:
 * a model run takes from a few to hundreds of milliseconds and blocks its thread, and the event loop
 * meanwhile serves requests and Temporal's tasks. Calls queue for the thread; the coalescing embedder
 * (`../coalescing-embedder.ts`) keeps at most one run of each kind of caller waiting.
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
  // Counting tokens is synchronous and cheap (chunking asks it often): this thread has the tokenizer too.
  const tokenizer = loadTokenizer(modelDir);
  const tokenWindow: TokenWindow = {
    maxTokens,
    count: (text) => tokenizer.encode(text, { return_token_type_ids: true }).ids.length,
  };
  const thread = startThread<{ texts: string[] }, Float64Array>(new URL('./model-thread', import.meta.url), { modelDir });
  // A session that cannot be built fails the load, not a first request.
  await thread.run({ texts: [''] });
  const space: EmbeddingSpace = { provider: 'local', model: pinnedModel.name, dimensions };

  return {
    space,
    tokenWindow,
    async embed(texts) {
      if (texts.length === 0) return [];
      const flat = await thread.run({ texts });
      return texts.map((_, i) => Array.from(flat.subarray(i * dimensions, (i + 1) * dimensions)));
    },
  };
}
