/**
 * Images and documents an agent sends on the messaging channel. The agent gives a URL; the file is
 * fetched through the service's one way out for requests made on a tenant's behalf
 * (`lib/platform/outbound/`: public addresses only in production, redirects checked hop by hop, a byte
 * cap), checked against our limits, uploaded to the platform's media endpoint
 * (`lib/messaging/graph-media.ts`), and the message then goes out with the platform's media id.
 *
 * Our limits are the platform's types and, for images, its size; documents are capped well below
 * the platform's 100 MB, because the file passes through the API's memory: 16 MB.
 */
import { OutboundError, type OutboundFiles } from '#platform/outbound/outbound-http.js';

export const mediaTypes = ['image', 'document'] as const;
export type MediaType = (typeof mediaTypes)[number];

const officeTypes = [
  'application/pdf',
  'text/plain',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
];

export const mediaLimits: Record<MediaType, { maxBytes: number; contentTypes: readonly string[] }> = {
  image: { maxBytes: 5 * 1024 * 1024, contentTypes: ['image/jpeg', 'image/png'] },
  document: { maxBytes: 16 * 1024 * 1024, contentTypes: officeTypes },
};

/** A caption's length (the platform's), and a document's file name as shown to the customer. */
export const captionChars = 1024;
export const filenameChars = 240;

/** How long fetching the file may take, answer included. */
export const mediaFetchTimeoutMs = 20_000;

/**
 * Why a file could not be taken, in words safe to show the agent (never a socket error or an address):
 * `media_refused` (the address is not public, or not http(s)), `media_unavailable` (no answer, or an
 * answer other than 200), `media_too_large`, `media_type_not_allowed`.
 */
export class MediaFetchError extends Error {
  override readonly name = 'MediaFetchError';
  constructor(
    readonly code: 'media_refused' | 'media_unavailable' | 'media_too_large' | 'media_type_not_allowed',
    message: string,
  ) {
    super(message);
  }
}

export interface FetchedMedia {
  bytes: Buffer;
  contentType: string;
  /** From the URL's last segment when the agent named none. */
  filename: string;
}

/** Fetches `url` as a file of `type` within our limits, or throws a MediaFetchError saying why not. */
export async function fetchMedia(http: OutboundFiles, url: string, type: MediaType): Promise<FetchedMedia> {
  const { maxBytes, contentTypes } = mediaLimits[type];
  let answer;
  try {
    answer = await http.getBytes(url, {
      headers: { accept: contentTypes.join(', ') },
      signal: AbortSignal.timeout(mediaFetchTimeoutMs),
      maxBytes,
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.code === 'refused_address' || error.code === 'refused_scheme') {
      throw new MediaFetchError('media_refused', `The file cannot be fetched: ${error.message}.`);
    }
    if (error.code === 'too_large') {
      throw new MediaFetchError('media_too_large', `The file is larger than the ${megabytes(maxBytes)} MB an ${type} may have.`);
    }
    throw new MediaFetchError('media_unavailable', `The file could not be fetched: ${error.message}.`);
  }
  if (answer.status !== 200) {
    throw new MediaFetchError(
      'media_unavailable',
      `The file's address answered ${answer.status} ${answer.statusText}`.trim() + '.',
    );
  }
  const contentType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!contentTypes.includes(contentType) || !looksLike(contentType, answer.bytes)) {
    throw new MediaFetchError(
      'media_type_not_allowed',
      `The file is ${contentType ? `of type ${contentType}` : 'of no stated type'} (or not what its type says); an ${type} may be ${contentTypes.join(', ')}.`,
    );
  }
  if (answer.bytes.length === 0) throw new MediaFetchError('media_unavailable', 'The file is empty.');
  return { bytes: answer.bytes, contentType, filename: filenameOf(url) };
}

/** The formats whose first bytes say what they are: a file labelled one and being another is refused. */
function looksLike(contentType: string, bytes: Buffer): boolean {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (contentType === 'image/jpeg') return starts(0xff, 0xd8, 0xff);
  if (contentType === 'image/png') return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  if (contentType === 'application/pdf') return starts(0x25, 0x50, 0x44, 0x46); // %PDF
  return true;
}

function filenameOf(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  return [...name.replace(/[\\/\p{Cc}]/gu, '').trim()].slice(0, filenameChars).join('') || 'file';
}

function megabytes(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

/** What the transcript keeps of a file sent: the platform's media id, and what the agent said of it. */
export interface SentMedia {
  type: MediaType;
  /** The platform's id of the uploaded file. */
  mediaId: string;
  /** Where it was fetched from. */
  url: string;
  caption?: string;
  /** Documents: the file name the customer sees. */
  filename?: string;
}

/** The Cloud API payload of an image or document send, by media id. */
export function mediaPayload(to: string, media: SentMedia, caption?: string) {
  const envelope = { messaging_product: 'whatsapp' as const, recipient_type: 'individual' as const, to };
  const withCaption = caption ? { caption } : {};
  return media.type === 'image'
    ? { ...envelope, type: 'image' as const, image: { id: media.mediaId, ...withCaption } }
    : {
        ...envelope,
        type: 'document' as const,
        document: { id: media.mediaId, ...withCaption, filename: media.filename ?? 'file' },
      };
}

/** How the transcript shows a file, as inbound files are shown (`[Image] caption`, `[Document: file.pdf] caption`). */
export function mediaText(media: Pick<SentMedia, 'type' | 'caption' | 'filename'>): string {
  const label = media.type === 'image' ? '[Image]' : `[Document: ${media.filename ?? 'file'}]`;
  return media.caption ? `${label} ${media.caption}` : label;
}
