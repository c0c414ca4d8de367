/**
 * Keyword matching of an article's own text, for the articles whose passages the knowledge base
 * does not hold yet (`article-search.ts`). It finds what the passages' BM25 would find: words as
 * Weaviate's `word` tokenization cuts them (runs of letters and digits, lower-cased) and a query
 * without Weaviate's English stopwords (the `en` preset, the collection's default), which match
 * nothing there. Any one word of the query is a match, as in BM25.
 */
import { normalizeText, normalizeTitle } from '#knowledge/text/normalize.js';

// Weaviate's `en` stopword preset (adapters/repos/db/inverted/stopwords/presets.go).
const stopwords = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

/** The words of a text, in order, as the keyword index cuts them. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** The distinct words of a query that can match, stopwords left out. */
export function queryWords(query: string): string[] {
  return [...new Set(wordsOf(query))].filter((word) => !stopwords.has(word));
}

export interface OwnTextMatch {
  /** How many of the query's words the text holds. */
  words: number;
  /** Their occurrences, each in the title counting twice (search weighs the title twice too). */
  weight: number;
}

/**
 * How an article's title and content (as the knowledge base would hold them: normalised, markup
 * removed) match the query's words; undefined when they hold none of them.
 */
export function matchOwnText(words: string[], text: { title: string; content: string }): OwnTextMatch | undefined {
  if (words.length === 0) return undefined;
  const counts = new Map(words.map((word) => [word, 0]));
  const count = (source: string, weight: number) => {
    for (const word of wordsOf(source)) {
      const seen = counts.get(word);
      if (seen !== undefined) counts.set(word, seen + weight);
    }
  };
  count(normalizeTitle(text.title), 2);
  count(normalizeText(text.content), 1);
  const found = [...counts.values()].filter((occurrences) => occurrences > 0);
  if (found.length === 0) return undefined;
  return { words: found.length, weight: found.reduce((sum, occurrences) => sum + occurrences, 0) };
}
