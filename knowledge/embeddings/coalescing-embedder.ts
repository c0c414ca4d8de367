import type { Embedder } from './embedder.js';

export interface CoalescingOptions {
  /** Texts of one model call at most. */
  maxBatch: number;
  /**
   * How long the first waiting text waits for company while the model is idle. At 0 it waits for
   * nothing but the calls made in the same turn of the event loop: for queries, whose caller waits.
   */
  maxWaitMs: number;
}

interface Waiting {
  /** Texts not yet sent to the model. */
  texts: string[];
  /** Vectors of the texts already embedded, in order. */
  vectors: number[][];
  resolve(vectors: number[][]): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent `embed` calls into shared model calls: while one model call runs, the texts
 * of every call that arrives wait, and go together in the next one (up to `maxBatch` texts), so the
 * model's cost per text falls as load rises. With the model idle, a call waits at most `maxWaitMs`
 * for others to join. A caller's texts may span several model calls; a failed model call fails
 * every caller whose texts were in it.
 */
export function coalescingEmbedder(inner: Embedder, { maxBatch, maxWaitMs }: CoalescingOptions): Embedder {
  const queue: Waiting[] = [];
  let queuedTexts = 0;
  let running = false;
  /** Cancels the pending wait for company, when there is one. */
  let cancelWait: (() => void) | undefined;

  function schedule(): void {
    if (running || queue.length === 0) return;
    if (queuedTexts >= maxBatch) return void flush();
    if (cancelWait) return;
    if (maxWaitMs > 0) {
      const timer = setTimeout(flush, maxWaitMs);
      cancelWait = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(flush);
      cancelWait = () => clearImmediate(immediate);
    }
  }

  async function flush(): Promise<void> {
    cancelWait?.();
    cancelWait = undefined;
    running = true;
    // Whole callers while they fit; a caller with more texts than the batch leaves the rest waiting.
    const taken: Array<{ caller: Waiting; texts: string[]; last: boolean }> = [];
    let size = 0;
    while (queue.length > 0 && size < maxBatch) {
      const caller = queue[0]!;
      const texts = caller.texts.splice(0, maxBatch - size);
      const last = caller.texts.length === 0;
      if (last) queue.shift();
      taken.push({ caller, texts, last });
      size += texts.length;
    }
    queuedTexts -= size;
    try {
      const vectors = await inner.embed(taken.flatMap(({ texts }) => texts));
      let offset = 0;
      for (const { caller, texts, last } of taken) {
        caller.vectors.push(...vectors.slice(offset, offset + texts.length));
        offset += texts.length;
        if (last) caller.resolve(caller.vectors);
      }
    } catch (error) {
      for (const { caller } of taken) fail(caller, error);
    } finally {
      running = false;
      schedule();
    }
  }

  function fail(caller: Waiting, error: unknown): void {
    const index = queue.indexOf(caller);
    if (index >= 0) {
      queue.splice(index, 1);
      queuedTexts -= caller.texts.length;
    }
    caller.reject(error);
  }

  return {
    space: inner.space,
    ...(inner.tokenWindow ? { tokenWindow: inner.tokenWindow } : {}),
    embed(texts) {
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        queue.push({ texts: [...texts], vectors: [], resolve, reject });
        queuedTexts += texts.length;
        schedule();
      });
    },
  };
}
