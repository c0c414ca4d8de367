/**
 * Finding a canned reply as an agent types (`/ref` in the reply box, or words in the search field),
 * in memory over the replies the agent may use: at most a tenant's 1,000, read from their scopes'
 * hashes (`canned-replies.ts`). Redis has no search module here, and a thousand short texts are
 * searched in well under a millisecond.
 */
import type { CannedReply } from './canned-replies.js';

/** Words: runs of letters and digits, any script, lower case. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** How well a reply matches: lower is better; undefined is no match. */
function rank(reply: Pick<CannedReply, 'shortcut' | 'title' | 'text'>, query: string, terms: string[]): number | undefined {
  if (reply.shortcut === query) return 0;
  if (reply.shortcut.startsWith(query)) return 1;
  if (terms.length === 0) return undefined;
  // Every term begins a word (typing "ref mon" finds "Refund of your money"): of the title first, else of the text too.
  const everyTermIn = (words: string[]) => terms.every((term) => words.some((word) => word.startsWith(term)));
  const titleWords = [...wordsOf(reply.shortcut), ...wordsOf(reply.title)];
  if (everyTermIn(titleWords)) return 2;
  if (everyTermIn([...titleWords, ...wordsOf(reply.text)])) return 3;
  return undefined;
}

/**
 * The replies that match `query`, best first, in their order otherwise: its shortcut exactly, a
 * shortcut that begins with it, then replies whose title (or, after those, text) has a word beginning
 * with each of its words. A leading `/` (as typed in the reply box) is left out; an empty query
 * matches every reply.
 */
export function searchCannedReplies<Reply extends Pick<CannedReply, 'shortcut' | 'title' | 'text'>>(
  replies: readonly Reply[],
  query: string | undefined,
): Reply[] {
  const wanted = (query ?? '').trim().replace(/^\//, '').toLowerCase();
  if (!wanted) return [...replies];
  const terms = wordsOf(wanted);
  return replies
    .map((reply, order) => ({ reply, order, rank: rank(reply, wanted, terms) }))
    .filter((match): match is { reply: Reply; order: number; rank: number } => match.rank !== undefined)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map(({ reply }) => reply);
}
