import { piecesOf, type Piece } from './pieces.js';
import type { Embedder } from '#knowledge/embeddings/embedder.js';
import { cosineSimilarity } from '#knowledge/search.js';
import type { RetrievedSource } from '../types.js';

/*
 * How close each piece's meaning is to the question's: the cosine similarity of their sentence
 * embeddings, the question and every distinct piece embedded in one call. A piece is embedded after
 * its source's title, as chunks are for retrieval (lib/knowledge/text/chunk.ts), so "- Weight: 1.9 kg"
 * of a tent's page knows which tent it weighs: on the evaluation corpus (tools/eval/) the best sentence
 * came from a source that answers the question for 85 of 101 questions with the title, 71 without.
 */

/**
 * What the composer needs of an embedder: one vector per text, in input order; and, when the model
 * has one, its token window, by which the answerer tells a misspelt word from one the model knows
 * (`lib/answering/typos.ts`).
 */
export type SentenceEmbedder = Pick<Embedder, 'embed' | 'tokenWindow'>;

export interface Scoring {
  /** The pieces that may be picked: of exact duplicates (overlapping chunks) only the first copy. */
  candidates: Piece[];
  /** Cosine similarity to the question of every piece, duplicates included (as their first copy). */
  relevance: Map<Piece, number>;
}

/** Scores every piece against the question, with one call of `embedder` (the question first). */
export async function scoreCandidates(
  question: string,
  pieces: Piece[][],
  sources: RetrievedSource[],
  embedder: SentenceEmbedder,
): Promise<Scoring> {
  const firstCopy = new Map<string, Piece>();
  const copyOf = new Map<Piece, Piece>();
  for (const piece of pieces.flat()) {
    if (piece.key === '') continue;
    const first = firstCopy.get(piece.key) ?? piece;
    firstCopy.set(piece.key, first);
    copyOf.set(piece, first);
  }
  const candidates = [...firstCopy.values()];
  if (candidates.length === 0) return { candidates, relevance: new Map() };

  const texts = candidates.map((piece) => embedTextOf(sources[piece.rank]!.title, piece.passage.slice(piece.start, piece.end)));
  // Sentences embedded at ingestion are read, not embedded again (lib/knowledge/sentence-vectors.ts).
  const stored = candidates.map((piece, i) => sources[piece.rank]!.sentenceVectors?.get(texts[i]!));
  const toEmbed = [question, ...texts.filter((_, i) => !stored[i])];
  const embedded = await embedder.embed(toEmbed);
  if (embedded.length !== toEmbed.length) {
    throw new Error(`The embedder returned ${embedded.length} vectors for ${toEmbed.length} texts`);
  }
  const [questionVector, ...fresh] = embedded;
  const pieceVectors = stored.map((vector) => vector ?? fresh.shift()!);
  const similarity = new Map(candidates.map((piece, i) => [piece, cosineSimilarity(questionVector!, pieceVectors[i]!)]));
  const relevance = new Map<Piece, number>();
  for (const [piece, first] of copyOf) relevance.set(piece, similarity.get(first)!);
  return { candidates, relevance };
}

/**
 * The texts `scoreCandidates` embeds for the sentences of a passage of a source titled `title`: what
 * ingestion embeds ahead and stores beside the chunk.
 */
export function sentenceTextsOf(title: string, passage: string, maxPieceChars: number): string[] {
  const pieces = piecesOf({ text: passage }, 0, maxPieceChars, new Map());
  const texts = pieces
    .filter((piece) => piece.key !== '')
    .map((piece) => embedTextOf(title, piece.passage.slice(piece.start, piece.end)));
  return [...new Set(texts)];
}

function embedTextOf(title: string, text: string): string {
  const heading = title.trim();
  return heading ? `${heading}\n\n${text}` : text;
}

/**
 * How close each source's closest sentence (or piece of one) is to the question, in the composer's
 * own terms: the sentences it would choose from, embedded as it embeds them. The answerer's
 * evidence rule uses it before any generator runs, so the composer's own call then finds every
 * vector in the embedder's cache.
 */
export async function closestSentenceSimilarities(
  question: string,
  sources: RetrievedSource[],
  embedder: SentenceEmbedder,
  maxPieceChars: number,
): Promise<number[]> {
  const pieces = sources.map((source, rank) => piecesOf(source, rank, maxPieceChars, new Map()));
  const { relevance } = await scoreCandidates(question, pieces, sources, embedder);
  return pieces.map((ofSource) => Math.max(0, ...ofSource.map((piece) => relevance.get(piece) ?? 0)));
}
