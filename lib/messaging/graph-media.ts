/**
 * The platform's media endpoint: `POST /<version>/<phone-number-id>/media`, multipart
 * (`messaging_product=whatsapp`, `type`, `file`), answered `{ id }`; a message then sends the file by
 * that id. Errors are the Graph API's, sorted as every Graph call's are (`graph-errors.ts`).
 */
import { readCappedText } from '#platform/outbound/capped-body.js';
import { OutboundError } from '#platform/outbound/outbound-error.js';
import { classifyGraphError, GraphApiError, unansweredGraphCall } from './graph-errors.js';
import type { GraphCredential } from './graph-client.js';

export interface GraphMediaClient {
  /** Uploads a file; answers the platform's media id. */
  uploadMedia(
    credential: GraphCredential,
    file: { bytes: Buffer; contentType: string; filename: string },
  ): Promise<{ id: string }>;
}

export function createGraphMediaClient({
  baseUrl,
  fetch = globalThis.fetch,
  timeoutMs = 30_000,
}: {
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}): GraphMediaClient {
  const base = baseUrl.replace(/\/+$/, '');
  const host = new URL(base).hostname;
  return {
    async uploadMedia({ apiVersion, phoneNumberId, accessToken }, { bytes, contentType, filename }) {
      const url = `${base}/${encodeURIComponent(apiVersion)}/${encodeURIComponent(phoneNumberId)}/media`;
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', contentType);
      form.set('file', new Blob([new Uint8Array(bytes)], { type: contentType }), filename);
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}` },
          body: form,
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await readCappedText(response, 1024 * 1024, host);
      } catch (error) {
        if (error instanceof OutboundError) {
          throw new GraphApiError({ status: null, code: null, title: error.message, kind: 'permanent' });
        }
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        throw unansweredGraphCall(timedOut ? `no answer within ${timeoutMs} ms` : 'request failed');
      }
      const parsed = parseJson(accessToken === '' ? text : text.replaceAll(accessToken, '[redacted]'));
      if (!response.ok) throw classifyGraphError(response.status, parsed);
      const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
      if (typeof id !== 'string' || id === '') {
        throw new GraphApiError({
          status: response.status,
          code: null,
          title: 'The upload was answered without a media id',
          kind: 'permanent',
        });
      }
      return { id };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
