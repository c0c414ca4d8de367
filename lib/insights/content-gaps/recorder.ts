import { createHash } from 'node:crypto';
import type { Embedder } from '#knowledge/embeddings/index.js';
import type { ContentGapStore } from './store.js';
import type { Gap, GapInput, GapOwner } from './types.js';
import { encodeVector, spaceKey, unitVector } from './vectors.js';

export interface GapRecorderDeps {
  store: Pick<ContentGapStore, 'add'>;
  /** The knowledge bases' embedding model (the one their chunks are in), for queries. */
  embedder: Pick<Embedder, 'embed' | 'space'>;
  /** Tells the operator's clustering workflow that a gap was recorded (`clustering-client.ts`). */
  recorded(owner: GapOwner): Promise<void>;
  /** Where a recording that failed is reported: it never fails the caller. */
  onError(error: unknown, input: GapInput): void;
  now?: () => Date;
}

/** A gap's id: from its conversation and message, so a retried recording finds the gap it recorded. */
export function gapIdOf(conversationId: string, messageId: string): string {
  return createHash('sha256').update(`${conversationId}\n${messageId}`).digest('hex').slice(0, 24);
}

/**
 * The content-gaps recorder: embeds the question with the knowledge base's model, stores it once,
 * and signals the operator's clustering. Answers go on whatever happens here: a failure is handed to
 * `onError` and `record` resolves false.
 */
export function createGapRecorder({ store, embedder, recorded, onError, now = () => new Date() }: GapRecorderDeps) {
  return async function record(input: GapInput): Promise<boolean> {
    try {
      const [vector] = await embedder.embed([input.question]);
      const gap: Gap = {
        id: gapIdOf(input.conversationId, input.messageId),
        question: input.question,
        askedAt: now().toISOString(),
        knowledgeBaseId: input.knowledgeBaseId,
        conversationId: input.conversationId,
        messageId: input.messageId,
        locale: input.locale,
        channel: input.channel,
        reason: input.reason,
        closestSources: input.closestSources,
        space: spaceKey(embedder.space),
        vector: encodeVector(unitVector(vector!)),
      };
      const owner = { tenantId: input.tenantId, operatorId: input.operatorId };
      const added = await store.add(owner, gap);
      // Signalled again on a retry too: the signal of the first attempt may be what failed.
      await recorded(owner);
      return added;
    } catch (error) {
      onError(error, input);
      return false;
    }
  };
}

export type RecordGap = ReturnType<typeof createGapRecorder>;
