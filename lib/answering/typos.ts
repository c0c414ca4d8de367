import type { TokenWindow } from '#knowledge/embeddings/embedder.js';
import { fold, oneTypoApart, termsOf } from './question-terms.js';

/*
 * Visitors type in a hurry ("whats the limit temp on the medow bag"), and the sentence model reads a
 * misspelt word as unrelated word pieces ("med", "##ow"), so the evidence rule and the composer
 * found the closest sentence of a misspelt question further away than that of the same question
 * spelt right, and declined or cited the wrong source. Retrieval still sees the question as typed
 * (its keyword half and the typo-tolerant term coverage cope with typos); what the sentence model
 * compares is the question with its typos mended against the words of the sources retrieved.
 *
 * A word is mended only when all of these hold, so that a real word is never swapped for a
 * neighbour ("sleep" for "steep", "later" for "layer"):
 * - it has five letters or more (as typo tolerance in question-terms.ts);
 * - the model does not know it as a whole word: its tokenizer cuts it into pieces, which it does for
 *   "medow", "pasword" or "warrenty" but not for "sleep", "later" or "level";
 * - no source contains it;
 * - a source contains a word one typo away from it, of five letters or more, that is not merely
 *   another form of it ("blisters" / "blister" stay as they are).
 * On the evaluation set this mends 19 of the 25 misspelt questions and no other question; see
 * docs/answering.md for the figures.
 */

/** Typos are mended only in words this long or longer, and only to words this long or longer. */
const MIN_MENDED_CHARS = 5;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * `question` with each misspelt word replaced by the word of `sources` it was meant to be (folded,
 * as the model reads it: it is uncased). Unchanged without a token window, which is how the model's
 * vocabulary is known.
 */
export function mendTypos(
  question: string,
  sources: ReadonlyArray<{ title: string; text: string }>,
  tokenWindow: TokenWindow | undefined,
): string {
  if (!tokenWindow) return question;
  // The tokens of an empty text are the model's own markers; a whole word adds exactly one.
  const markers = tokenWindow.count('');
  const isWholeWord = (word: string) => tokenWindow.count(word) <= markers + 1;
  let vocabulary: Set<string> | undefined;
  return question.replace(WORD, (word) => {
    const folded = fold(word);
    if (folded.length < MIN_MENDED_CHARS || /\p{N}/u.test(folded) || termsOf([folded]).size === 0) return word;
    vocabulary ??= new Set(sources.flatMap((source) => fold(`${source.title}\n${source.text}`).match(WORD) ?? []));
    if (vocabulary.has(folded) || isWholeWord(folded)) return word;
    const stem = stemOf(folded);
    for (const known of vocabulary) {
      if (known.length >= MIN_MENDED_CHARS && oneTypoApart(folded, known) && stemOf(known) !== stem) return known;
    }
    return word;
  });
}

function stemOf(word: string): string | undefined {
  return [...termsOf([word])][0];
}
