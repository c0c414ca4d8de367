import type { ChunkIndex } from '#knowledge/chunk-index.js';
import type { Embedder } from '#knowledge/embeddings/index.js';
import type { RetrievedSource } from '#knowledge/search.js';
import { answerSentencesOf } from './extractive/composer.js';

/**
 * Keeps the vectors of the sentences an answer compared on the chunks they came from, so the next
 * answer from those chunks embeds only its question. Ingestion embeds a chunk once, as a whole; its
 * sentences, which the evidence rule and the composer compare one by one, are embedded the first
 * time an answer reads it, and kept then: most chunks never answer a question, and a sentence read
 * in its chunk's run (no second run at ingestion) compared worse (docs/embeddings.md).
 */
export function createSentenceMemory(deps: {
  chunkIndex: Pick<ChunkIndex, 'keepSentenceVectors'>;
  /** The answerer's sentence embedder: behind its cache, the vectors it just made cost nothing again. */
  sentences: Pick<Embedder, 'embed'>;
}) {
  return {
    /** Keeps the sentence vectors of the sources' chunks that have none yet. */
    async remember(knowledgeBaseId: string, sources: RetrievedSource[]): Promise<void> {
      for (const source of sources) {
        for (const chunk of source.chunks ?? []) {
          if (chunk.sentencesKept) continue;
          const texts = answerSentencesOf(source.title, chunk.text);
          if (texts.length === 0) continue;
          await deps.chunkIndex.keepSentenceVectors(knowledgeBaseId, chunk.id, texts, await deps.sentences.embed(texts));
        }
      }
    },
  };
}

export type SentenceMemory = ReturnType<typeof createSentenceMemory>;
