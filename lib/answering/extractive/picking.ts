import { SHORT_SENTENCE_CHARS, type Piece } from './pieces.js';
import { groupBySource, render, type Pick } from './rendering.js';
import type { Scoring } from './scoring.js';
import type { RetrievedSource } from '../types.js';

/*
 * Which pieces the extractive answer shows: those whose meaning is close to the question's, best
 * first, within the sentence and character limits; each with the sentence before it when it leans on
 * that one ("It will display…"), with what follows when it only introduces ("Opening hours",
 * "…in a few steps:"), and no near duplicates.
 */

/** Limits of one answer. */
export interface Limits {
  maxSentences: number;
  maxChars: number;
  maxPieceChars: number;
}

/*
 * The thresholds, in cosine similarity of all-MiniLM-L6-v2 (a piece embedded after its source's
 * title), chosen on the evaluation corpus (tools/eval/: 101 answerable and 18 unanswerable questions) with
 * a stand-in for retrieval (the 3 sources whose best chunk is most similar, up to 3 chunks each), so
 * on realistic sets of sources rather than on one question. Of the 93 answerable questions whose
 * answering source was among the three, the first group of the answer came from an answering source
 * for 80 under every value tried below; the values decide how much else is shown.
 */

/**
 * No piece below this is an answer, and no answer is given when the best piece is below it. Over
 * the whole corpus the best sentence of a source that answers is at least 0.36 for 99 of the 101
 * answerable questions (the two below, 0.27 and 0.28, are paraphrases the model misses: "squishes
 * down small" for "packable", "a real person" for "live chat"), while the best sentence anywhere is
 * below 0.3 for 4 of the 18 unanswerable ones ("banana bread recipe", "capital of australia"). In
 * the stand-in (without retrieval's own filters), 0.25, 0.3 and 0.35 gave an answer to all 93 and
 * to 16, 15 and 12 of the 18 unanswerable ones; 0.4 lost an answer. Retrieval has already dropped
 * what is far off, so this second line stays clear of the answers (the next ones up are at 0.36 and
 * 0.37) rather than cutting close to them; German, which the model reads mostly by shared word
 * pieces, was not measured. Also the bar for the sentence pulled in before one that leans on it.
 */
export const MIN_SIMILARITY = 0.3;

/**
 * A source contributes only when its best piece is within this of the best piece overall: one that
 * shares a topic without answering is neither shown nor cited. In the stand-in, 12 of the 93
 * answers cited more than one source at 0.05 (10 at 0.04, 16 at 0.06, 22 at 0.08), all but one of
 * them with a source the corpus marks as not answering; of the two questions with two answering
 * sources among the three, both were cited for one at every value from 0.04 to 0.08.
 */
export const SOURCE_MARGIN = 0.05;

/**
 * A piece of a contributing source is shown only when it is within this of the best piece overall:
 * the sentences around the answer that are about the question too, not the rest of the page. In the
 * stand-in, 0.05 mostly shows the single best sentence (1.88 per answer) without the details that
 * complete it (the waterproof rating after "fully waterproof", the Sunday hours after the holiday
 * closures); 0.08 adds those (2.14); 0.1 (2.35) adds as much about something else (a product's
 * feature list, a second rental price).
 */
export const SENTENCE_MARGIN = 0.08;

/**
 * The first source, the one retrieval ranked best, competes with this added to its pieces' similarity
 * (in the margins and in the order pieces are taken, never for the floor, and groups are still shown
 * best sentence first): retrieval weighs the whole chunk and its words as well as its meaning, one
 * sentence's similarity is noisier, and citations are numbered in retrieval's order, so when the first
 * source's best sentence is nearly as close as another source's, it is shown and cited first rather
 * than dropped. Chosen on the evaluation set's tuning questions, replaying `npm run eval`'s retrieval
 * through the composer at each value: the first citation was right for 0.757 of the answerable ones
 * without a head start, 0.771 at 0.02 to 0.04, 0.778 at 0.05, 0.785 from 0.06 to 0.09 and 0.778 at
 * 0.1; 0.07 is the middle of the best (with typos mended and the evidence rule's sentence floor at
 * 0.475: 0.785 without, 0.799 from 0.06 to 0.09). On the held-out questions: 0.705 without, 0.727
 * with it. It mostly helps where a product page outscores the policy or how-to page a question is
 * about.
 */
export const LEAD_SOURCE_HEAD_START = 0.07;

// Near duplicates: this share of content words in common, or one contained in the other.
const DUPLICATE_JACCARD = 0.8;
const MIN_CONTAINED_CHARS = 20;

/**
 * Greedy, best first among the pieces within the margins of the best: each with its antecedents and
 * what it introduces as one run, taken whole or not at all (continuations only while the limits
 * allow).
 */
export function pickPieces(scoring: Scoring, pieces: Piece[][], sources: RetrievedSource[], limits: Limits): Pick[] {
  const { candidates, relevance } = scoring;
  const relevanceOf = (piece: Piece) => relevance.get(piece) ?? -Infinity;
  if (!(Math.max(...candidates.map(relevanceOf)) >= MIN_SIMILARITY)) return [];
  const standingOf = (piece: Piece) => relevanceOf(piece) + (piece.rank === 0 ? LEAD_SOURCE_HEAD_START : 0);
  const best = Math.max(...candidates.map(standingOf));
  const sourceBest = new Map<number, number>();
  for (const piece of candidates)
    sourceBest.set(piece.rank, Math.max(sourceBest.get(piece.rank) ?? -Infinity, standingOf(piece)));
  const bar = best - SENTENCE_MARGIN;
  const ranked = candidates
    .filter(
      (piece) =>
        relevanceOf(piece) >= MIN_SIMILARITY && standingOf(piece) >= bar && sourceBest.get(piece.rank)! >= best - SOURCE_MARGIN,
    )
    .sort((a, b) => standingOf(b) - standingOf(a) || a.rank - b.rank || a.index - b.index);

  const picked: Pick[] = [];
  const isPicked = (piece: Piece) => picked.some((pick) => pick.piece === piece);
  /** True when `run` can join the picks: no near duplicate, and within the limits. */
  const fits = (run: Piece[]) => {
    if (picked.length + run.length > limits.maxSentences) return false;
    const shown = picked.map((pick) => pick.piece);
    for (const piece of run) {
      if (shown.some((other) => isNearDuplicate(other, piece))) return false;
      shown.push(piece);
    }
    const attempt = [...picked, ...run.map((piece) => ({ piece, score: relevanceOf(piece) }))];
    return render(groupBySource(attempt), sources).length <= limits.maxChars;
  };

  for (const piece of ranked) {
    if (picked.length >= limits.maxSentences) break;
    if (isPicked(piece)) continue;
    const run = withAntecedents(piece, pieces, relevanceOf, isPicked);
    if (!run || !fits(run)) continue;
    // Continuations: what a heading, an FAQ question or "…these steps:" introduces.
    for (let current = run.at(-1)!, introduced = false; ;) {
      const following = pieces[current.rank]![current.index + 1];
      introduced ||= current.introduces;
      if (!following || isPicked(following) || !continues(current, following, introduced)) break;
      if (!fits([...run, following])) break;
      run.push(following);
      current = following;
    }
    // A heading, question or "…these steps:" says nothing without what follows it.
    while (run.length > 0 && run.at(-1)!.introduces) run.pop();
    if (!run.includes(piece)) continue;
    picked.push(...run.map((member) => ({ piece: member, score: relevanceOf(member) })));
  }
  return picked;
}

/**
 * `piece`, after the pieces before it that it leans on ("It…", "However…") and that are not picked
 * yet; undefined when one of those is missing (the passage starts with it) or is not about the
 * question itself.
 */
function withAntecedents(
  piece: Piece,
  pieces: Piece[][],
  relevanceOf: (piece: Piece) => number,
  isPicked: (piece: Piece) => boolean,
): Piece[] | undefined {
  const run = [piece];
  for (let current = piece; current.leansBack;) {
    const previous = pieces[current.rank]![current.index - 1];
    if (!previous || previous.passageIndex !== current.passageIndex) return undefined;
    if (isPicked(previous)) break;
    if (relevanceOf(previous) < MIN_SIMILARITY) return undefined;
    run.unshift(previous);
    current = previous;
  }
  return run;
}

/**
 * True when `next` may follow the picked `piece` whatever its own relevance: what a heading, question
 * or colon introduces, and after it, while sentences stay short, the rest of its line (an FAQ answer)
 * or of the list or table it began.
 */
function continues(piece: Piece, next: Piece, introduced: boolean): boolean {
  if (next.passageIndex !== piece.passageIndex) return false;
  // A heading, or a question at the start of a line, begins something else (the next FAQ entry).
  const nextLine = next.line !== piece.line;
  if (next.label || (next.question && nextLine)) return false;
  if (piece.introduces) return true;
  if (!introduced || piece.end - piece.start > SHORT_SENTENCE_CHARS) return false;
  // Across lines only from a list item to the next, or from a line without end punctuation (table rows).
  return !nextLine || (piece.listItem && next.listItem) || !piece.terminated;
}

function isNearDuplicate(a: Piece, b: Piece): boolean {
  if (a.key === b.key) return true;
  const [shorter, longer] = a.key.length < b.key.length ? [a, b] : [b, a];
  if (shorter.key.length >= MIN_CONTAINED_CHARS && longer.key.includes(shorter.key)) return true;
  if (a.terms.size < 3 || b.terms.size < 3) return false;
  let common = 0;
  for (const term of a.terms) if (b.terms.has(term)) common++;
  return common / (a.terms.size + b.terms.size - common) >= DUPLICATE_JACCARD;
}
