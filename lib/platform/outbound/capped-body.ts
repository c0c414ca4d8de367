import { OutboundError } from './outbound-error.js';

/** The part of a fetch Response the reader needs (the global and undici's both fit). */
export interface StreamedResponse {
  headers: { get(name: string): string | null };
  body: ByteStream | null;
}

/** A web ReadableStream of bytes, as far as reading it goes (undici's and the global types differ in the rest). */
interface ByteStream {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> };
  cancel(reason?: unknown): Promise<void>;
}

/**
 * The body as UTF-8 text (as `response.text()` reads it), read as a stream and abandoned, with the
 * connection, once it passes `maxBytes`: a server that streams gigabytes must not fill the memory of a
 * process every tenant shares. `host` names the server in the error.
 */
export async function readCappedText(response: StreamedResponse, maxBytes: number, host: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  await readCapped(response, maxBytes, host, (chunk) => (text += decoder.decode(chunk, { stream: true })));
  return text + decoder.decode();
}

/** The body as bytes (a file: an image, a document), read as `readCappedText` reads, under the same cap. */
export async function readCappedBytes(response: StreamedResponse, maxBytes: number, host: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  await readCapped(response, maxBytes, host, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

async function readCapped(
  response: StreamedResponse,
  maxBytes: number,
  host: string,
  take: (chunk: Uint8Array) => unknown,
): Promise<void> {
  const tooLarge = () => new OutboundError('too_large', `response larger than ${maxBytes} bytes from ${host}`);
  const declared = Number(response.headers.get('content-length'));
  if (response.body === null) return;
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader = response.body.getReader();
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || value === undefined) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    take(value);
  }
}
