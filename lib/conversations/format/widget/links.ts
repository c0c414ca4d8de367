/*
 * Links for the chat widget: which URLs it may link (http, https and, for links, mailto), written so
 * that nothing in them ends a markdown link early, and `[label](url)` / image links built from them.
 */

export const WEB = ['http:', 'https:'] as const;
export const WEB_AND_MAIL = ['http:', 'https:', 'mailto:'] as const;

/** `[label](url)` when `url` is http, https or mailto; otherwise just the label text. */
export function markdownLink(label: string, url: string): string {
  const href = allowedHref(url, WEB_AND_MAIL);
  const text = linkLabel(label);
  if (!href) return text;
  return `[${text || href.replace(/^mailto:/, '')}](${href})`;
}

/** Images become a link to the image (http/https only), labelled with their alt text or else the URL. */
export function imageLink(alt: string, url: string): string {
  const href = allowedHref(url, WEB);
  const text = linkLabel(alt);
  return href ? `[${text || href}](${href})` : text;
}

function linkLabel(label: string): string {
  let text = label.replace(/[[\]]/g, '').replace(/\s+/g, ' ').trim();
  for (let wrapped = /^(\*\*|__|\*|_|`)(.+)\1$/.exec(text); wrapped; wrapped = /^(\*\*|__|\*|_|`)(.+)\1$/.exec(text)) {
    text = wrapped[2]!.trim();
  }
  return text;
}

/**
 * The URL as the widget may link it, or undefined when its scheme is not allowed (javascript:, data:,
 * relative paths…). The scheme is lower-cased and characters that would end a markdown link early
 * (spaces, parentheses, angle brackets, quotes) are percent-encoded.
 */
export function allowedHref(raw: string, schemes: readonly string[]): string | undefined {
  let url = raw.trim();
  if (url.startsWith('<') && url.endsWith('>')) url = url.slice(1, -1).trim();
  if (/^www\./i.test(url)) url = `https://${url}`;
  if (!url || /[\u0000-\u001F\u007F\\]/.test(url)) return undefined;
  if (!/^(?:https?:\/\/[^\s/?#]|mailto:[^\s])/i.test(url)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!schemes.includes(parsed.protocol)) return undefined;
  if (parsed.protocol !== 'mailto:' && !parsed.hostname) return undefined;
  return `${parsed.protocol}${url.slice(url.indexOf(':') + 1)}`.replace(
    /[\s()<>"`]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** Drops trailing punctuation and an unbalanced closing parenthesis: "(see https://x.com/a)." → the URL. */
export function trimUrlEnd(url: string): string {
  let end = url.length;
  let unbalanced = count(url, ')') - count(url, '(');
  for (;;) {
    const last = url[end - 1];
    if (last !== undefined && '.,;:!?\'"_~'.includes(last)) end--;
    else if (last === ')' && unbalanced > 0) {
      end--;
      unbalanced--;
    } else return url.slice(0, end);
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}
