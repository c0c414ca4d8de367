/**
 * The shape of an evaluation question and the two labels every question carries: what kind of
 * difficulty it tests, and which split it belongs to. Thresholds (when to say "I don't know") are
 * chosen on `tuning` only and reported on both, so `held-out` shows whether they generalise.
 */

export const questionKinds = ['plain', 'paraphrase', 'misspelled', 'two-sources', 'unanswerable', 'off-topic'] as const;
/**
 * - plain: answerable, in roughly the words of the answering text
 * - paraphrase: answerable, but shares few or no content words with the answering text
 * - misspelled: answerable, with one to three realistic typos
 * - two-sources: answerable only by combining two items (`answeredBy` lists all of them)
 * - unanswerable: near the shop's domain, but nothing in the corpus answers it
 * - off-topic: nothing to do with the shop
 */
export type QuestionKind = (typeof questionKinds)[number];

export const questionSplits = ['tuning', 'held-out'] as const;
export type QuestionSplit = (typeof questionSplits)[number];

/** Kinds whose questions nothing in the corpus answers: `answeredBy` is empty. */
export const unansweredKinds: readonly QuestionKind[] = ['unanswerable', 'off-topic'];

export interface EvalQuestion {
  id: string;
  question: string;
  /** ExternalIds whose text answers the question; empty when nothing does. */
  answeredBy: string[];
  kind: QuestionKind;
  split: QuestionSplit;
}

export type QuestionDraft = Omit<EvalQuestion, 'kind' | 'split'>;

/**
 * Stamps one kind and one split on questions written together, so that the split of every question
 * is fixed in the source (never drawn at run time) and visible at a glance.
 */
export function section(kind: QuestionKind, split: QuestionSplit, drafts: QuestionDraft[]): EvalQuestion[] {
  return drafts.map((draft) => ({ ...draft, kind, split }));
}
