import type { Routing, RoutingRule } from '#tenancy/index.js';

/** What routing knows of a conversation when it is handed off. */
export interface HandoffFacts {
  channel: string;
  operatorId: string;
  handoffBy: string | null;
  /** What the customer wrote so far (their latest messages). */
  customerText: string;
}

/**
 * The team a handed-off conversation goes to: the first rule whose every condition holds, else the
 * default team, else none. A keyword holds when the customer wrote it as a word or phrase (any case,
 * any accents kept: "Rückerstattung" is not "Ruckerstattung").
 */
export function teamFor(routing: Routing, facts: HandoffFacts): string | null {
  const words = wordsOf(facts.customerText);
  const rule = routing.rules.find((candidate) => matches(candidate, facts, words));
  return rule?.teamId ?? routing.defaultTeamId ?? null;
}

function matches(rule: RoutingRule, facts: HandoffFacts, words: string): boolean {
  if (rule.channel && rule.channel !== facts.channel) return false;
  if (rule.operatorId && rule.operatorId !== facts.operatorId) return false;
  if (rule.handoffBy && rule.handoffBy !== facts.handoffBy) return false;
  if (rule.keywords?.length && !rule.keywords.some((keyword) => words.includes(` ${wordsOf(keyword).trim()} `))) return false;
  return true;
}

/** Text as lower-case words separated by single spaces, with a space at each end: phrases match whole words. */
function wordsOf(text: string): string {
  const words = text.toLocaleLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return ` ${words.join(' ')} `;
}
