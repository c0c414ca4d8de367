/**
 * The placeholders of canned replies (docs/agent-inbox.md, "Canned replies"): `{{contact.name}}` and
 * the like, filled in when the reply is sent, from the conversation and the agent sending it. Pure:
 * the routes read the values and decide what a refusal looks like.
 *
 * `{{ name }}` may carry a fallback, `{{ name | there }}`, used when the conversation has no value
 * for it ("Hi {{contact.first_name | there}}" greets an anonymous visitor with "Hi there"). Without
 * one, a missing value is refused rather than sent as a hole in the sentence. Everything between
 * `{{` and `}}` is a placeholder: a name not in the set is refused when the reply is saved, so a typo
 * is found by whoever wrote it, not by the customer.
 */

/** The placeholders a canned reply may use, each with what it is filled with. */
export const cannedReplyPlaceholders = {
  'contact.name': "The customer's name: the name the site passed (widget) or their profile name (messaging).",
  'contact.first_name': "The first word of the customer's name.",
  'contact.email': "The customer's e-mail address, when the site passed one (widget).",
  'contact.phone': "The customer's number, `+` and digits (messaging).",
  'agent.name': 'The name of the agent who sends the reply.',
  'agent.first_name': "The first word of the agent's name.",
  'agent.email': "The agent's e-mail address.",
  'conversation.id': "The conversation's id.",
} as const;

export type PlaceholderName = keyof typeof cannedReplyPlaceholders;

/** The values one conversation and agent give the placeholders; a missing or blank one has none. */
export type PlaceholderValues = Partial<Record<PlaceholderName, string | undefined>>;

/** One `{{…}}` of a text: its name as written (trimmed) and its fallback, if it has one. */
export interface PlaceholderUse {
  /** The whole `{{…}}`, as written. */
  written: string;
  name: string;
  fallback?: string;
}

export type RenderedReply =
  | { ok: true; text: string }
  /** `unknown`: names outside the set; `missing`: known names without a value here and without a fallback. */
  | { ok: false; unknown: string[]; missing: string[] };

const placeholderPattern = /\{\{([^{}]*)\}\}/g;

const isPlaceholderName = (name: string): name is PlaceholderName => Object.hasOwn(cannedReplyPlaceholders, name);

/** One `{{…}}`: the name before a `|`, the fallback after it (a blank fallback is none). */
function placeholderUse(written: string, inside: string): PlaceholderUse {
  const bar = inside.indexOf('|');
  const name = (bar === -1 ? inside : inside.slice(0, bar)).trim();
  const fallback = bar === -1 ? undefined : inside.slice(bar + 1).trim();
  return { written, name, ...(fallback ? { fallback } : {}) };
}

/** Every `{{…}}` of the text, in order. */
export function placeholdersIn(text: string): PlaceholderUse[] {
  return [...text.matchAll(placeholderPattern)].map(([written, inside]) => placeholderUse(written, inside!));
}

/** The placeholders of the text outside the set, each once, as written between the braces (`contact.nmae`). */
export function unknownPlaceholders(text: string): string[] {
  return [
    ...new Set(
      placeholdersIn(text)
        .filter(({ name }) => !isPlaceholderName(name))
        .map(({ name }) => name),
    ),
  ];
}

/** The first word of a name (`Grace` of `Grace Hopper`). */
export const firstWordOf = (name: string | undefined): string | undefined => name?.trim().split(/\s+/)[0] || undefined;

/**
 * The text as the customer will read it: each placeholder replaced by its value, or its fallback
 * when it has no value here. Values are put in as they are, once: a value that looks like a
 * placeholder (a customer named `{{agent.email}}`) stays text.
 */
export function renderCannedReply(text: string, values: PlaceholderValues): RenderedReply {
  const unknown = unknownPlaceholders(text);
  const missing = new Set<string>();
  const rendered = text.replace(placeholderPattern, (written, inside: string) => {
    const { name, fallback } = placeholderUse(written, inside);
    if (!isPlaceholderName(name)) return written;
    const value = values[name]?.trim();
    if (value) return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return written;
  });
  if (unknown.length > 0 || missing.size > 0) return { ok: false, unknown, missing: [...missing] };
  return { ok: true, text: rendered };
}
