import type { RetrievedSource } from '#knowledge/search.js';
import { closestSentences } from './extractive/composer.js';
import type { SentenceEmbedder } from './extractive/scoring.js';
import { termCoverage } from './question-terms.js';

/**
 * When a retrieved source is evidence enough to answer from, for every generator alike. Three
 * signals, because each fails alone: similarity in meaning lets a paraphrase through ("keep a
 * package from being upgraded" / "putting a package on hold") but also a text merely on the same
 * subject; the share of the question's words a source contains rejects off-subject texts but also
 * paraphrases; and a chunk may be near the question as a whole while no sentence of it says what was
 * asked. So a source must be close in meaning and contain a good part of the question (unless it is
 * so close in meaning that its words no longer matter), and one of its sentences must be close too.
 * The values per embedder are in lib/platform/config.ts; how they were chosen is in docs/answering.md.
 */
export interface EvidenceRule {
  /** Least cosine similarity between the question and the source's closest chunk. */
  minSimilarity: number;
  /** Share of the question's terms the source must contain (more than this). */
  minCoverage: number;
  /** From this chunk similarity on, the words shared no longer matter. Above 1: never. */
  confidentSimilarity: number;
  /** Least similarity between the question and the source's closest sentence (all-MiniLM-L6-v2). */
  minSentenceSimilarity: number;
}

/** The cheap half of the rule, from what retrieval already knows; `coverage` is computed only when needed. */
export function isCloseEnough(similarity: number, coverage: () => number, rule: EvidenceRule): boolean {
  return similarity >= rule.minSimilarity && (similarity >= rule.confidentSimilarity || coverage() > rule.minCoverage);
}

/** The sources that answer the question by `rule`, renumbered for citation; none means "I don't know". */
export async function answeringSources(
  question: string,
  sources: RetrievedSource[],
  rule: EvidenceRule,
  sentences: SentenceEmbedder,
): Promise<RetrievedSource[]> {
  const close = sources.filter((source) =>
    isCloseEnough(source.similarity, () => termCoverage(question, `${source.title}\n${source.text}`), rule),
  );
  if (close.length === 0) return [];
  const closest = await closestSentences(question, close, sentences);
  return close.filter((_, i) => closest[i]! >= rule.minSentenceSimilarity).map((source, i) => ({ ...source, n: i + 1 }));
}
