import type { User } from '#tenancy/index.js';
import type { NotePerson } from './notes.js';

export type Colleague = Pick<User, 'id' | 'name' | 'email' | 'active'>;

/** A user id in `mentions` that is no active user of the tenant. */
export class UnknownMentionError extends Error {
  override readonly name = 'UnknownMentionError';
  constructor(
    readonly userId: string,
    readonly index: number,
  ) {
    super(`No active user ${userId} in this tenant to mention.`);
  }
}

/** A letter, digit or `_`: what may not touch a mention on either side. */
const wordChar = /[\p{L}\p{N}_]/u;

/**
 * Who a note mentions: the users named in `explicit` (ids; each must be an active user of the tenant,
 * else `UnknownMentionError` naming the first that is not), and those the text names as `@` and their
 * e-mail address or full name, case aside (`@Ada Lovelace`, `@ada@shop.example`). A `@word` naming no
 * one is only text: an e-mail address in a note is not a mention. The longest name wins where two
 * overlap (`@Ada Lovelace` is Ada Lovelace, not also a colleague called Ada). Each person once, the
 * explicit ones first.
 */
export function resolveMentions(text: string, explicit: string[], colleagues: Colleague[]): NotePerson[] {
  const active = colleagues.filter((colleague) => colleague.active);
  const byId = new Map(active.map((colleague) => [colleague.id, colleague]));
  const found = new Map<string, NotePerson>();
  explicit.forEach((userId, index) => {
    const colleague = byId.get(userId);
    if (!colleague) throw new UnknownMentionError(userId, index);
    found.set(colleague.id, { userId: colleague.id, name: colleague.name });
  });

  // Longest handle first, and each match blanked out, so a shorter name inside it is not found again.
  const handles = active
    .flatMap((colleague) => [colleague.email, colleague.name].filter(Boolean).map((handle) => ({ handle, colleague })))
    .sort((a, b) => b.handle.length - a.handle.length);
  let rest = text;
  for (const { handle, colleague } of handles) {
    for (const match of [...rest.matchAll(new RegExp(`@${escapeRegExp(handle)}`, 'giu'))]) {
      const at = match.index;
      const before = rest[at - 1];
      const after = rest.slice(at + match[0].length);
      const startsClean = before === undefined || !(wordChar.test(before) || /[.@+-]/.test(before));
      const endsClean = after === '' || !(wordChar.test(after[0]!) || after[0] === '@' || /^[.-][\p{L}\p{N}]/u.test(after));
      if (!startsClean || !endsClean) continue;
      if (!found.has(colleague.id)) found.set(colleague.id, { userId: colleague.id, name: colleague.name });
      // Same length, so the other matches' positions hold.
      rest = rest.slice(0, at) + ' '.repeat(match[0].length) + after;
    }
  }
  return [...found.values()];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
