import { formatForWidget } from './widget.js';
import { stringsFor } from '#answering/locales.js';
import type { Citation } from '#answering/types.js';
import type { Locale } from '#workflows/locales.js';

/*
 * Answers for a WhatsApp-style messaging channel: short replies read on a phone, in the platform's
 * own markup (`*bold*`, `_italic_`, `~strike~`), no tables or headings, links as plain URLs (the app
 * links them itself), citations as a short list at the end.
 *
 * The text first goes through `formatForWidget`, which already turns any LLM markdown or HTML into a
 * small, safe subset (no tags, links only to http/https/mailto, citations as `[n]`); this module
 * translates that subset. Every AI message ends with the AI label line: there is deliberately no
 * option to leave it out.
 */

/** The platform rejects text messages longer than this. */
const PLATFORM_LIMIT = 4096;
/** What we allow ourselves, whatever the input: well under the platform's limit. */
const MAX_MESSAGE_CHARS = PLATFORM_LIMIT - 96;
/** Default length of the answer body (before the sources and the label): a few phone screens at most. */
const DEFAULT_BODY_CHARS = 700;
// Bounds on the sources block, so that it can never crowd out the answer: at most 8 × ~390 characters.
const MAX_LISTED_SOURCES = 8;
const MAX_TITLE_CHARS = 80;
const MAX_SOURCE_URL_CHARS = 300;
/** A cut at a sentence or line end is preferred when it keeps at least this share of the allowed length. */
const MIN_SENTENCE_CUT_SHARE = 0.5;

export interface MessagingFormatOptions {
  /** Upper bound on the answer body, before the sources block and the AI label. Default 700. */
  maxChars?: number;
}

/**
 * An answer as one messaging-channel text: the body in the platform's markup (cut to `maxChars` at a
 * sentence or word boundary, ending with `…` when cut), then the cited sources (`_Sources:_`, one
 * `n. Title: url` line each), then the AI label line, always. Never longer than 4000 characters.
 */
export function formatForMessaging(
  answer: { text: string; citations: Citation[] },
  locale: Locale,
  options: MessagingFormatOptions = {},
): string {
  const strings = stringsFor(locale);
  const tail = [sourcesBlock(answer.citations, strings.sources), aiLabelLine(locale)].filter(Boolean).join('\n\n');
  const budget = Math.min(requestedBodyChars(options.maxChars), MAX_MESSAGE_CHARS - tail.length - 2);
  const body = cutToLength(toMessagingMarkup(formatForWidget(imagesAsUrls(answer.text))), budget);
  return body ? `${body}\n\n${tail}` : tail;
}

/**
 * Appends the AI label line to an AI-authored message that is not a composed answer (e.g. "I'm
 * passing you to a person"), so that every AI message on the channel carries it. The text is sent as
 * it is (no markup translation); it is cut if it would not fit the platform's limit.
 */
export function labelAsAi(text: string, locale: Locale): string {
  const label = aiLabelLine(locale);
  const body = text.trim();
  if (body === label || body.endsWith(`\n${label}`)) return body;
  const cut = cutToLength(body, MAX_MESSAGE_CHARS - label.length - 2);
  return cut ? `${cut}\n\n${label}` : label;
}

function aiLabelLine(locale: Locale): string {
  return `_${stringsFor(locale).aiLabel}_`;
}

function requestedBodyChars(maxChars: number | undefined): number {
  if (maxChars === undefined || Number.isNaN(maxChars)) return DEFAULT_BODY_CHARS;
  return Math.max(1, Math.floor(maxChars));
}

// ---------------------------------------------------------------------------------------------------
// Markup

/** Images are shown as their URL: the app previews it. Non-http(s) images are left to the widget step (alt text). */
function imagesAsUrls(text: string): string {
  return text.replace(/!\[[^\[\]]*\]\(\s*<?(https?:\/\/[^\s()<>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/gi, '$1');
}

// The widget subset's link: its URL is always http, https or mailto, with no spaces or parentheses.
const WIDGET_LINK = /\[([^\[\]]*)\]\(([^\s()]+)\)/g;

/** Widget light markdown → messaging markup; citation markers are dropped (the sources block lists them). */
function toMessagingMarkup(widgetText: string): string {
  const tokens: string[] = [];
  const keep = (piece: string) => `\uE000${tokens.push(piece) - 1}\uE001`;
  return widgetText
    .replace(/`[^`\n]+`/g, keep)
    .replace(WIDGET_LINK, (_, label: string, url: string) => keep(plainLink(label, url)))
    .replace(/([ \t]*)(?:\[\d+\])+([ \t]*)/g, (_, lead: string, trail: string, offset: number, whole: string) => {
      const atLineStart = offset === 0 || whole[offset - 1] === '\n';
      if (atLineStart) return lead;
      return trail ? ' ' : '';
    })
    .replace(/\*\*(?=\S)(.{1,500}?)(?<=\S)\*\*/g, '*$1*')
    .replace(/~~(?=\S)(.{1,500}?)(?<=\S)~~/g, '~$1~')
    .replace(/\uE000(\d+)\uE001/g, (_, i: string) => tokens[Number(i)] ?? '')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * `label (https://…)`, or just the URL when the label says the same. A mailto link shows its address
 * the same way (a label alone would hide how to write to it); anything else is already only a label.
 */
function plainLink(label: string, url: string): string {
  const target = /^mailto:/i.test(url) ? mailAddress(url) : url;
  if (!/^(?:https?:|mailto:)/i.test(url)) return label;
  return !label || sameTarget(label, target) ? target : `${label} (${target})`;
}

function mailAddress(url: string): string {
  const address = url.slice('mailto:'.length).split('?')[0] ?? '';
  try {
    return decodeURIComponent(address);
  } catch {
    return address;
  }
}

function sameTarget(label: string, target: string): boolean {
  const bare = (s: string) =>
    s
      .trim()
      .toLowerCase()
      .replace(/^(?:https?:\/\/|mailto:)/, '')
      .replace(/^www\./, '')
      .replace(/\/$/, '');
  return bare(label) === bare(target);
}

// ---------------------------------------------------------------------------------------------------
// Sources

function sourcesBlock(citations: Citation[], heading: string): string {
  const seen = new Set<number>();
  const lines: string[] = [];
  for (const citation of citations) {
    if (lines.length === MAX_LISTED_SOURCES) break;
    if (seen.has(citation.n)) continue;
    seen.add(citation.n);
    const line = sourceLine(citation);
    if (line) lines.push(line);
  }
  return lines.length ? [`_${heading}:_`, ...lines].join('\n') : '';
}

/** `n. Title: url`, `n. Title` without a (usable) URL, `n. url` without a title. */
function sourceLine(citation: Citation): string | undefined {
  const title = cutToLength(citation.title.replace(/\s+/g, ' ').trim(), MAX_TITLE_CHARS);
  const url = citation.url?.trim() ?? '';
  const usableUrl = /^https?:\/\/\S+$/i.test(url) && url.length <= MAX_SOURCE_URL_CHARS ? url : '';
  const n = Number.isInteger(citation.n) ? `${citation.n}. ` : '- ';
  if (title && usableUrl) return `${n}${title}: ${usableUrl}`;
  if (title || usableUrl) return `${n}${title || usableUrl}`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Length

/**
 * At most `maxChars` characters: cut after the last sentence or line that fits (` …` appended) when
 * that keeps at least half of the allowed length, else after the last whole word (`…` appended), else
 * (one overlong word) inside it.
 */
function cutToLength(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return '…'.slice(0, Math.max(0, maxChars));

  let sentenceEnd = -1;
  for (const match of text.slice(0, maxChars - 1).matchAll(/[.!?…]["'”’)\]*_~]*(?=\s)|(?=\n)/g)) {
    const end = match.index + match[0].length;
    if (end <= maxChars - 2) sentenceEnd = end;
  }
  if (sentenceEnd >= maxChars * MIN_SENTENCE_CUT_SHARE) {
    const head = text.slice(0, sentenceEnd).trimEnd();
    if (head) return `${head} …`;
  }

  const wordEnd = text.slice(0, maxChars).lastIndexOf(' ', maxChars - 1);
  const lineEnd = text.slice(0, maxChars).lastIndexOf('\n', maxChars - 1);
  const boundary = Math.max(wordEnd, lineEnd);
  if (boundary > 0) {
    const head = text
      .slice(0, boundary)
      .replace(/[\s,;:–—-]+$/, '')
      .trimEnd();
    if (head) return `${head}…`;
  }

  let end = maxChars - 1;
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return `${text.slice(0, end)}…`;
}
