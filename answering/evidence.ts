import type { RetrievedSource } from '#knowledge/search.js';
import { termCoverage } from './question-terms.js';

/**
 * When a retrieved source is evidence enough to answer from. Two signals, because each fails alone:
 * similarity in meaning lets a paraphrase through ("stop a package from upgrading" / "putting a
 * package on hold") but also a text that is merely on the same subject; the share of the
 * question's words a source contains rejects off-subject texts but also paraphrases. So a source
 * must be close in meaning and contain a good part of the question, unless it is so close in
 * meaning that its words no longer matter.
 */
export interface EvidenceRule {
  /** Least cosine similarity between the question and the source's closest chunk. */
  minSimilarity: number;
  /** Share of the question's terms the source must contain (more than this). */
  minCoverage: number;
  /** From this similarity on, the words shared no longer matter. Above 1: never. */
  confidentSimilarity: number;
}

/** What is known of one source: its similarity, and the share of the question's terms it contains (computed only when needed). */
export function isEvidence(similarity: number, coverage: () => number, rule: EvidenceRule): boolean {
  return similarity >= rule.minSimilarity && (similarity >= rule.confidentSimilarity || coverage() > rule.minCoverage);
}

/** The sources that answer the question by `rule`, renumbered for citation; none means "I don't know". */
export function answeringSources(question: string, sources: RetrievedSource[], rule: EvidenceRule): RetrievedSource[] {
  return sources
    .filter((source) => isEvidence(source.similarity, () => termCoverage(question, `${source.title}\n${source.text}`), rule))
    .map((source, i) => ({ ...source, n: i + 1 }));
}
