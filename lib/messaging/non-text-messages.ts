/**
 * What the AI and the agent inbox see for a customer message that is not text. The channel passes
 * media, stickers, locations and contact cards on as one line of English text in brackets (the
 * published interface: "as a text placeholder"), so the conversation stays a list of texts and the
 * AI can still answer a caption or say that it cannot look at the picture. Media are not
 * downloaded: the webhook carries only their ids.
 */

/** For message types the Cloud API cannot relay (polls, edits, view-once, …) and types we do not know. */
export const unsupportedPlaceholder = '[Unsupported message]';

/**
 * The placeholder for a message of `type`, whose content object (`message[type]`) is `content`.
 * Any field may be missing or of the wrong type: what cannot be read is left out, never thrown.
 */
export function placeholderFor(type: string, content: unknown): string {
  const fields = isRecord(content) ? content : {};
  const caption = text(fields.caption);
  switch (type) {
    case 'image':
      return withTail('[Image]', caption);
    case 'video':
      return withTail('[Video]', caption);
    case 'document': {
      const filename = text(fields.filename);
      return withTail(filename ? `[Document: ${filename}]` : '[Document]', caption);
    }
    case 'audio':
      return fields.voice === true ? '[Voice message]' : '[Audio]';
    case 'sticker':
      return '[Sticker]';
    case 'location':
      return locationPlaceholder(fields);
    case 'contacts':
      return contactsPlaceholder(content);
    default:
      return unsupportedPlaceholder;
  }
}

/** `[Location] 45.501689, -73.567256 – Pickup point, 100 Rue Example`; coordinates may come as numeric strings. */
function locationPlaceholder(location: Record<string, unknown>): string {
  const latitude = coordinate(location.latitude);
  const longitude = coordinate(location.longitude);
  const coordinates = latitude !== undefined && longitude !== undefined ? `${latitude}, ${longitude}` : undefined;
  const place = [text(location.name), text(location.address)].filter(Boolean).join(', ');
  return withTail('[Location]', [coordinates, place].filter(Boolean).join(' – '));
}

/** `[Contact card: Ana Souza]`, or `[Contact cards: Ana Souza, Ben Ode]` when several were shared at once. */
function contactsPlaceholder(cards: unknown): string {
  const names = (Array.isArray(cards) ? cards : []).map(contactName).filter((name) => name !== undefined);
  if (names.length === 0) return '[Contact card]';
  return `[${names.length === 1 ? 'Contact card' : 'Contact cards'}: ${names.join(', ')}]`;
}

function contactName(card: unknown): string | undefined {
  if (!isRecord(card) || !isRecord(card.name)) return undefined;
  const { formatted_name, first_name, last_name } = card.name;
  return text(formatted_name) ?? ([text(first_name), text(last_name)].filter(Boolean).join(' ') || undefined);
}

function coordinate(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

function withTail(label: string, tail: string | undefined): string {
  return tail ? `${label} ${tail}` : label;
}

/** A non-blank string, trimmed; anything else is treated as absent. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
