import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '#platform/logger.js';
import type { ChatMessage } from '../chat-message.js';
import type { ConversationRecord } from '../records.js';
import type { ClaimedChanges, ConversationChange, SearchChanges } from './changes.js';
import { conversationDocument, type ConversationDocument, type ConversationExtras } from './documents.js';
import type { ConversationSearchIndex } from './search-index.js';

export interface SearchIndexerDeps {
  changes: Pick<SearchChanges, 'claim' | 'complete' | 'retryLater'>;
  index: Pick<ConversationSearchIndex, 'upsert' | 'remove'>;
  records: { get(conversationId: string): Promise<ConversationRecord | undefined> };
  transcript: { read(conversationId: string): Promise<ChatMessage[]> };
  /**
   * What else of a conversation is searchable: its private notes (`lib/conversations/notes.ts`) and
   * its satisfaction score (`lib/insights/ratings.ts`, a library above this one, hence a callback).
   */
  extras?: (record: ConversationRecord) => Promise<ConversationExtras>;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** Conversations claimed and written at a time. */
  batchSize?: number;
  /** How long a claim holds: past it, a batch whose worker died is taken up again. */
  leaseMs?: number;
  /** How long the loop waits when nothing was due. */
  idleMs?: number;
  /** The longest wait before a batch Weaviate refused is tried again (doubling from `idleMs`). */
  maxRetryMs?: number;
  now?: () => number;
}

const noExtras = async (): Promise<ConversationExtras> => ({ notes: [], rating: null });

/**
 * Keeps the search index in step with the conversations (docs/agent-inbox.md, "Conversation
 * search"): claims the changed ones in batches, reads each one's record, transcript and extras, and
 * writes its document; only once Weaviate accepted the batch are its changes forgotten. A batch it
 * could not write is tried again later, sooner when the conversation changes again, so Weaviate
 * being away delays search and loses nothing; conversations never wait for it.
 */
export function createSearchIndexer({
  changes,
  index,
  records,
  transcript,
  extras = noExtras,
  logger,
  batchSize = 64,
  leaseMs = 120_000,
  idleMs = 100,
  maxRetryMs = 10_000,
  now = Date.now,
}: SearchIndexerDeps) {
  /** Batches failed in a row: the loop waits longer after each, up to `maxRetryMs`. */
  let failures = 0;
  const backoff = (failed: number) => (failed === 0 ? idleMs : Math.min(maxRetryMs, idleMs * 2 ** failed));

  /** What to write (a document) or remove (a conversation whose record is gone) for each change. */
  async function read(change: ConversationChange): Promise<ConversationDocument | ConversationChange> {
    const record = await records.get(change.conversationId);
    if (!record || record.tenantId !== change.tenantId) return change;
    const [messages, more] = await Promise.all([transcript.read(change.conversationId), extras(record)]);
    return conversationDocument(record, messages, more);
  }

  async function write(claimed: ClaimedChanges): Promise<void> {
    const read_ = await Promise.all(claimed.changes.map(read));
    const documents = read_.filter((item): item is ConversationDocument => 'status' in item);
    const gone = read_.filter((item) => !('status' in item));
    await index.upsert(documents);
    await Promise.all(gone.map((change) => index.remove(change.tenantId, change.conversationId)));
  }

  /**
   * Indexes one batch of due changes; returns how many were indexed (0 when none was due). A batch
   * that fails is given back for a later try, and the error thrown.
   */
  async function indexBatch(): Promise<number> {
    const claimed = await changes.claim(batchSize, leaseMs);
    if (claimed.changes.length === 0) return 0;
    try {
      await write(claimed);
    } catch (error) {
      // Given back for later; were Redis away too, the claim lapses and the batch is taken up again.
      await changes.retryLater(claimed.token, claimed.changes, now() + backoff(failures + 1)).catch(() => undefined);
      throw error;
    }
    await changes.complete(claimed.token, claimed.changes);
    return claimed.changes.length;
  }

  let running: Promise<void> | undefined;
  let stopping = false;
  let wake: AbortController | undefined;

  async function loop(): Promise<void> {
    while (!stopping) {
      let indexed = 0;
      try {
        indexed = await indexBatch();
        failures = 0;
      } catch (error) {
        // Redis or Weaviate away: the changes stay marked; wait longer before each next try.
        if (failures === 0)
          logger.warn({ err: { message: (error as Error).message } }, 'conversation search index not updated; trying again');
        failures++;
      }
      if (indexed > 0) continue;
      wake = new AbortController();
      await sleep(backoff(failures), undefined, { signal: wake.signal }).catch(() => undefined);
    }
  }

  return {
    indexBatch,

    /** Runs the loop in the background until `stop()`. */
    start(): void {
      if (running) return;
      stopping = false;
      running = loop();
    },

    /** Stops the loop once its batch is done (a batch cut short would be taken up again after its lease). */
    async stop(): Promise<void> {
      stopping = true;
      wake?.abort();
      await running;
      running = undefined;
    },
  };
}

export type SearchIndexer = ReturnType<typeof createSearchIndexer>;
