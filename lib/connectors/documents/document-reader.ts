import { startThread, type Thread } from '#platform/threads/thread.js';
import type { DocumentTask, DocumentOutcome } from './document-thread.js';
import { DocumentError } from './errors.js';
import type { ExtractOptions } from './extract.js';
import type { HtmlDocument } from './html.js';
import type { ExtractedDocument } from './types.js';

export interface DocumentReaderOptions {
  /** The reading thread's heap, at most (default 512 MiB): a file that needs more is refused, the process unharmed. */
  maxMemoryMb?: number;
  /** One document's reading, at most (default 60 s): longer, and the thread is ended and the file refused. */
  timeoutMs?: number;
}

/** Reads documents (see `extractDocument`) and crawled pages (`readHtml`) on a thread of their own, bounded in memory and time. */
export interface DocumentReader {
  read(bytes: Uint8Array, options?: ExtractOptions): Promise<ExtractedDocument>;
  /** A crawled page's main content, links, canonical address and robots directives. */
  readPage(html: string, url: string): Promise<HtmlDocument>;
  close(): Promise<void>;
}

/**
 * A reader on one thread, started by the first document (documents queue for it): a worker reading a 200-page PDF keeps heartbeating
 * and answering its other activities, and a file built to exhaust memory or time (a PDF's endless
 * object streams, a lying zip) ends its thread with a `DocumentError` (`too_complex`), not the worker.
 */
export function createDocumentReader({ maxMemoryMb = 512, timeoutMs = 60_000 }: DocumentReaderOptions = {}): DocumentReader {
  // Started by the first document: most workers read none, and a thread is not free.
  let thread: Thread<DocumentTask, DocumentOutcome> | undefined;
  const started = () =>
    (thread ??= startThread<DocumentTask, DocumentOutcome>(
      new URL('./document-thread', import.meta.url),
      {},
      { resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb } },
    ));
  async function run(task: DocumentTask, transferList?: Transferable[]): Promise<DocumentOutcome> {
    try {
      return await started().run(task, { signal: AbortSignal.timeout(timeoutMs), ...(transferList ? { transferList } : {}) });
    } catch (error) {
      throw tooComplex(error, maxMemoryMb, timeoutMs);
    }
  }
  return {
    async read(bytes, options = {}) {
      // Copied into a buffer of its own, moved to the thread (the caller's stays whole).
      const own = new Uint8Array(bytes);
      const outcome = await run({ ...options, kind: 'file', bytes: own }, [own.buffer]);
      if ('refused' in outcome) throw new DocumentError(outcome.refused.code, outcome.refused.message, outcome.refused.limit);
      if (!('document' in outcome)) throw new Error('the documents thread answered a file with a page');
      return outcome.document;
    },
    async readPage(html, url) {
      const outcome = await run({ kind: 'page', html, url });
      if (!('page' in outcome)) throw new Error('the documents thread answered a page with something else');
      return outcome.page;
    },
    close: async () => {
      await thread?.close();
    },
  };
}

/** A thread that ran out of memory or time: the file is refused, in words naming the limit. */
function tooComplex(error: unknown, maxMemoryMb: number, timeoutMs: number): DocumentError {
  const cause = error as { name?: string; code?: string };
  if (cause.name === 'AbortError' || cause.name === 'TimeoutError') {
    return new DocumentError(
      'too_complex',
      `Reading the file took longer than ${timeoutMs / 1000} s, the limit; it was stopped.`,
      {
        name: 'readSeconds',
        value: timeoutMs / 1000,
      },
    );
  }
  if (cause.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new DocumentError(
      'too_complex',
      `Reading the file needed more than ${maxMemoryMb} MiB of memory, the limit; it was stopped.`,
      {
        name: 'readMemoryMb',
        value: maxMemoryMb,
      },
    );
  }
  throw error;
}
