/**
 * Cloud API send payloads for what the channel says: text, and a choice offered as reply buttons,
 * a list, or numbered text. The builders adapt to the platform's limits rather than fail (split a
 * long text, shorten a title, fall back from buttons to a list to text), because an answer the
 * platform rejects with 131009 is an answer the customer never gets. `validateOutboundPayload`
 * states the same limits as checks, for tests and for the fake platform.
 *
 * Lengths are counted in Unicode code points (the platform says "characters, not bytes"); text is
 * never cut inside a code point, and shortened titles are cut between whole emoji and letters.
 */

export const limits = {
  textBody: 4096,
  interactiveBody: 1024,
  headerText: 60,
  footerText: 60,
  buttons: 3,
  buttonId: 256,
  buttonTitle: 20,
  listButton: 20,
  sections: 10,
  rows: 10,
  rowId: 200,
  rowTitle: 24,
  rowDescription: 72,
} as const;

interface Envelope {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
  /** Shows the message as a reply to the customer's message with this id. */
  context?: { message_id: string };
}

export interface TextPayload extends Envelope {
  type: 'text';
  text: { body: string; preview_url: boolean };
}

interface InteractiveParts {
  header?: { type: 'text'; text: string };
  body: { text: string };
  footer?: { text: string };
}

export interface ButtonPayload extends Envelope {
  type: 'interactive';
  interactive: InteractiveParts & {
    type: 'button';
    action: { buttons: Array<{ type: 'reply'; reply: { id: string; title: string } }> };
  };
}

export interface ListPayload extends Envelope {
  type: 'interactive';
  interactive: InteractiveParts & {
    type: 'list';
    action: { button: string; sections: Array<{ rows: Array<{ id: string; title: string; description?: string }> }> };
  };
}

export type OutboundPayload = TextPayload | ButtonPayload | ListPayload;

/** An option offered to the customer; a tap comes back as `choiceId` = `id` on the inbound message. */
export interface Choice {
  id: string;
  title: string;
  /** Shown under the title in a list (4 to 10 options), after it in numbered text; buttons have none. */
  description?: string;
}

export interface SendOptions {
  /** The customer's message this answers (its wamid); set on the first payload only. */
  replyTo?: string;
}

export interface TextOptions extends SendOptions {
  /** Ask for a link preview; by default, when the part contains an http(s) URL. */
  previewUrl?: boolean;
}

export interface ChoiceOptions extends SendOptions {
  header?: string;
  footer?: string;
  /** The label of the button that opens a list; English by default. */
  listButton?: string;
}

/**
 * One text message. Meant for a part of `splitText(text, limits.textBody)`: a longer text is
 * clipped with '…' (use `textMessages` to send all of it), a blank one becomes '…'.
 */
export function textMessage(to: string, text: string, { previewUrl, replyTo }: TextOptions = {}): TextPayload {
  const body = clip(text.trim(), limits.textBody) || '…';
  return {
    ...envelope(to, replyTo),
    type: 'text',
    text: { body, preview_url: previewUrl ?? /https?:\/\/\S/.test(body) },
  };
}

/** The whole text as one or more text messages, to send in order; none for blank text. */
export function textMessages(to: string, text: string, { replyTo, ...options }: TextOptions = {}): TextPayload[] {
  return splitText(text, limits.textBody).map((part, index) =>
    textMessage(to, part, { ...options, replyTo: index === 0 ? replyTo : undefined }),
  );
}

/**
 * The payloads that offer `choices` below `body`: up to 3 as reply buttons, up to 10 as a list,
 * more as numbered text (the customer then answers with a number, as plain text). A body too long
 * for an interactive message goes first as text, and its last part becomes the interactive body.
 */
export function choiceMessages(to: string, body: string, choices: Choice[], options: ChoiceOptions = {}): OutboundPayload[] {
  if (choices.length === 0) return textMessages(to, body, options);
  if (choices.length > limits.rows) return textMessages(to, withNumberedChoices(body, choices), options);
  const [lead, last] = splitOffInteractiveBody(body);
  const leading = textMessages(to, lead, options);
  const then = leading.length > 0 ? { ...options, replyTo: undefined } : options;
  const interactive =
    choices.length <= limits.buttons ? buttonMessage(to, last, choices, then) : listMessage(to, last, choices, then);
  return [...leading, interactive];
}

/** One reply-button message: the first 3 choices, titles shortened and made unique, body clipped to fit. */
export function buttonMessage(to: string, body: string, choices: Choice[], options: ChoiceOptions = {}): ButtonPayload {
  const offered = choices.slice(0, limits.buttons);
  const ids = uniqueIds(offered, limits.buttonId);
  const titles = uniqueTitles(offered, limits.buttonTitle);
  return {
    ...envelope(to, options.replyTo),
    type: 'interactive',
    interactive: {
      type: 'button',
      ...interactiveParts(body, options),
      action: { buttons: offered.map((_, i) => ({ type: 'reply', reply: { id: ids[i]!, title: titles[i]! } })) },
    },
  };
}

/** One list message: the first 10 choices as rows of one section, everything shortened to fit. */
export function listMessage(to: string, body: string, choices: Choice[], options: ChoiceOptions = {}): ListPayload {
  const offered = choices.slice(0, limits.rows);
  const ids = uniqueIds(offered, limits.rowId);
  const titles = uniqueTitles(offered, limits.rowTitle);
  const rows = offered.map(({ description }, i) => ({
    id: ids[i]!,
    title: titles[i]!,
    ...(description?.trim() ? { description: clip(oneLine(description), limits.rowDescription) } : {}),
  }));
  return {
    ...envelope(to, options.replyTo),
    type: 'interactive',
    interactive: {
      type: 'list',
      ...interactiveParts(body, options),
      action: { button: clip(oneLine(options.listButton ?? '') || 'Options', limits.listButton), sections: [{ rows }] },
    },
  };
}

/**
 * `text` in parts of at most `max` code points, cut at the last paragraph break that leaves the
 * part at least half full, else the last line break, sentence end or space, else between two
 * graphemes. Parts are trimmed; blank text gives no parts.
 */
export function splitText(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest !== '') {
    const window = firstCodePoints(rest, max);
    const cut = window.length === rest.length ? rest.length : cutIndex(rest, window);
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  return parts;
}

/** Paragraph, line, sentence, word: the boundaries a part may end at, best first. */
const boundaries = [/\n[^\S\n]*\n/g, /\n/g, /[.!?…]['"”’)\]]*\s|[。！？]/g, /\s/g];

function cutIndex(rest: string, window: string): number {
  for (const [level, boundary] of boundaries.entries()) {
    const ends = [...window.matchAll(boundary)].map((match) => match.index + match[0].length);
    const last = ends.at(-1);
    const wordLevel = level === boundaries.length - 1;
    if (last !== undefined && (wordLevel || last >= window.length / 2) && rest.slice(0, last).trim() !== '') return last;
  }
  // No space at all: cut between graphemes, so that no emoji or accented letter is torn apart.
  const between = graphemeEnds(rest.slice(0, window.length + 32)).filter((end) => end <= window.length);
  return between.at(-1) || window.length;
}

/**
 * Splits a body too long for an interactive message: what goes first as text, and the body that
 * carries the choices. That is the last paragraph (where the question usually is) or line if it
 * fits, else the last part of the split text.
 */
function splitOffInteractiveBody(body: string): [lead: string, last: string] {
  const trimmed = body.trim();
  if (codePoints(trimmed) <= limits.interactiveBody) return ['', trimmed];
  const last = lastPieceThatFits(trimmed);
  return [trimmed.slice(0, trimmed.length - last.length), last];
}

function lastPieceThatFits(text: string): string {
  for (const separator of boundaries.slice(0, 2)) {
    const piece = text.split(separator).at(-1)!.trim();
    if (piece !== '' && codePoints(piece) <= limits.interactiveBody) return piece;
  }
  return splitText(text, limits.interactiveBody).at(-1)!;
}

function withNumberedChoices(body: string, choices: Choice[]): string {
  const lines = choices.map(
    ({ title, description }, i) => `${i + 1}. ${oneLine(title)}${description?.trim() ? ` – ${oneLine(description)}` : ''}`,
  );
  return [body.trim(), lines.join('\n')].filter(Boolean).join('\n\n');
}

function envelope(to: string, replyTo: string | undefined): Envelope {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    ...(replyTo ? { context: { message_id: replyTo } } : {}),
  };
}

function interactiveParts(body: string, { header, footer }: ChoiceOptions): InteractiveParts {
  return {
    ...(header?.trim() ? { header: { type: 'text', text: clip(oneLine(header), limits.headerText) } } : {}),
    // The platform requires a body; an empty one would be refused, an ellipsis is not.
    body: { text: clip(body.trim(), limits.interactiveBody) || '…' },
    ...(footer?.trim() ? { footer: { text: clip(oneLine(footer), limits.footerText) } } : {}),
  };
}

/** Titles on one line, shortened with '…', then numbered where two came out the same ("Shipping… 2"). */
function uniqueTitles(choices: Choice[], max: number): string[] {
  const taken = new Set<string>();
  return choices.map(({ title }, i) => {
    const full = oneLine(title) || `Option ${i + 1}`;
    let candidate = clip(full, max);
    for (let n = 2; taken.has(candidate); n++) candidate = clip(full, max - codePoints(` ${n}`)) + ` ${n}`;
    taken.add(candidate);
    return candidate;
  });
}

/** Ids are ours and opaque: trimmed and cut to length, never ellipsised; a repeated one gets `_2`. */
function uniqueIds(choices: Choice[], max: number): string[] {
  const taken = new Set<string>();
  return choices.map(({ id }, i) => {
    const full = id.trim() || `option_${i + 1}`;
    let candidate = firstCodePoints(full, max).trim();
    for (let n = 2; taken.has(candidate); n++) candidate = firstCodePoints(full, max - codePoints(`_${n}`)).trim() + `_${n}`;
    taken.add(candidate);
    return candidate;
  });
}

/** At most `max` code points; a shortened text ends in '…' and keeps its graphemes whole. */
function clip(text: string, max: number): string {
  if (codePoints(text) <= max) return text;
  let kept = '';
  let count = 0;
  for (const { segment } of graphemes.segment(text)) {
    count += codePoints(segment);
    if (count + 1 > max) break;
    kept += segment;
  }
  return `${kept.trimEnd()}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function graphemeEnds(text: string): number[] {
  return [...graphemes.segment(text)].map(({ index, segment }) => index + segment.length);
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function firstCodePoints(text: string, max: number): string {
  let end = 0;
  let count = 0;
  for (const char of text) {
    if (count === max) break;
    end += char.length;
    count++;
  }
  return text.slice(0, end);
}

/**
 * What is wrong with a send payload, by the platform's rules for the text and interactive
 * messages this service sends; empty when it would be accepted. The fake platform answers a
 * payload with problems as the real one does (400, code 131009).
 */
export function validateOutboundPayload(payload: unknown): string[] {
  if (!isRecord(payload)) return ['the payload is not a JSON object'];
  const problems: string[] = [];
  const check = stringChecker(problems);
  if (payload.messaging_product !== 'whatsapp') problems.push('messaging_product must be "whatsapp"');
  check('to', payload.to, 64);
  if (payload.recipient_type !== undefined && payload.recipient_type !== 'individual') {
    problems.push('recipient_type must be "individual"');
  }
  if (payload.context !== undefined) {
    check('context.message_id', isRecord(payload.context) ? payload.context.message_id : undefined, 256);
  }
  const type = payload.type ?? 'text';
  if (type === 'text') {
    const text = isRecord(payload.text) ? payload.text : {};
    check('text.body', text.body, limits.textBody);
    if (text.preview_url !== undefined && typeof text.preview_url !== 'boolean') {
      problems.push('text.preview_url must be a boolean');
    }
  } else if (type === 'interactive') {
    validateInteractive(isRecord(payload.interactive) ? payload.interactive : {}, problems);
  } else {
    problems.push(`type "${String(type)}" is not a type this service sends`);
  }
  return problems;
}

function validateInteractive(interactive: Record<string, unknown>, problems: string[]): void {
  const check = stringChecker(problems);
  const header = isRecord(interactive.header) ? interactive.header : undefined;
  if (interactive.header !== undefined && header?.type !== 'text') problems.push('interactive.header must be a text header');
  if (header) check('interactive.header.text', header.text, limits.headerText);
  check('interactive.body.text', isRecord(interactive.body) ? interactive.body.text : undefined, limits.interactiveBody);
  if (interactive.footer !== undefined) {
    check('interactive.footer.text', isRecord(interactive.footer) ? interactive.footer.text : undefined, limits.footerText);
  }
  const action = isRecord(interactive.action) ? interactive.action : {};
  if (interactive.type === 'button') {
    const buttons = Array.isArray(action.buttons) ? action.buttons : [];
    if (buttons.length < 1 || buttons.length > limits.buttons) {
      problems.push(`Invalid buttons count. Min allowed buttons: 1, Max allowed buttons: ${limits.buttons}`);
    }
    const replies = buttons.map((button: unknown, i) => {
      if (!isRecord(button) || button.type !== 'reply' || !isRecord(button.reply)) {
        problems.push(`button ${i + 1} must be a reply button`);
      }
      return isRecord(button) && isRecord(button.reply) ? button.reply : {};
    });
    checkOptions('button', replies, { id: limits.buttonId, title: limits.buttonTitle }, problems);
  } else if (interactive.type === 'list') {
    check('interactive.action.button', action.button, limits.listButton);
    const sections = (Array.isArray(action.sections) ? action.sections : []).map((section: unknown) =>
      isRecord(section) ? section : {},
    );
    if (sections.length < 1 || sections.length > limits.sections) problems.push(`a list has 1 to ${limits.sections} sections`);
    sections.forEach((section, i) => {
      if (sections.length > 1 || section.title !== undefined) check(`section ${i + 1} title`, section.title, limits.rowTitle);
    });
    const rows = sections
      .flatMap((section) => (Array.isArray(section.rows) ? section.rows : []))
      .map((row: unknown) => (isRecord(row) ? row : {}));
    if (rows.length < 1 || rows.length > limits.rows) problems.push(`a list has 1 to ${limits.rows} rows in total`);
    checkOptions('row', rows, { id: limits.rowId, title: limits.rowTitle }, problems);
    rows.forEach((row, i) => {
      if (row.description !== undefined) check(`row ${i + 1} description`, row.description, limits.rowDescription);
    });
  } else {
    problems.push('interactive.type must be "button" or "list"');
  }
}

/** Ids and titles of buttons or rows: present, short enough, unique; ids without surrounding spaces. */
function checkOptions(
  kind: string,
  options: Record<string, unknown>[],
  max: { id: number; title: number },
  problems: string[],
): void {
  const check = stringChecker(problems);
  options.forEach((option, i) => {
    check(`${kind} ${i + 1} id`, option.id, max.id);
    if (typeof option.id === 'string' && option.id !== option.id.trim()) {
      problems.push(`${kind} ${i + 1} id has leading or trailing spaces`);
    }
    check(`${kind} ${i + 1} title`, option.title, max.title);
  });
  for (const field of ['id', 'title']) {
    const values = options.map((option) => option[field]);
    if (new Set(values).size !== values.length) problems.push(`${kind} ${field}s must be unique`);
  }
}

/** Checks that a field is a non-blank string of at most `max` code points. */
function stringChecker(problems: string[]) {
  return (path: string, value: unknown, max: number): void => {
    if (typeof value !== 'string' || value.trim() === '') problems.push(`${path} is required`);
    else if (codePoints(value) > max) problems.push(`${path} is longer than ${max} characters`);
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
