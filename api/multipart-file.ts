import { basename } from 'node:path/posix';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Context } from 'koa';
import { AppError, invalidPayload } from './errors.js';

/** A file part of a `multipart/form-data` request, as it streams in. */
export interface FilePart {
  /** The part's file name, without any directory a client sent with it. */
  name: string;
  /** The type the client declared, when it declared one besides the generic `application/octet-stream`. */
  contentType: string | null;
  bytes: Readable;
}

/** Room for a request's multipart framing (boundaries, part headers) besides its file. */
const framingBytes = 64 * 1024;
const maxNameChars = 255;

/**
 * Hands the one file of a `multipart/form-data` request (the part named `file`) to `take` as a stream,
 * and resolves to what `take` resolved to. Nothing is buffered here: the file flows from the socket
 * to `take` as `take` reads it. Refused before `take` runs: another content type (415), a declared
 * length over `maxBytes` (413 `file_too_large`), no part `file`, two, or a name that is empty or too
 * long (400); refused after it, a second file or too many parts (400), and what `take` made of the
 * file is undone. A request whose file `take` refused is read to its end (a client sending a body
 * hears the answer only once it has sent it), without keeping any of it.
 */
export async function takeUploadedFile<T>(
  ctx: Context,
  maxBytes: number,
  take: (file: FilePart) => Promise<T>,
  undo: (taken: T) => Promise<void>,
): Promise<T> {
  if (!ctx.request.is('multipart/form-data')) {
    throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data, in a part named "file".');
  }
  if ((ctx.request.length ?? 0) > maxBytes + framingBytes) throw fileTooLarge(maxBytes);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: maxBytes + 1, fields: 10, parts: 11 } });
  } catch (error) {
    throw invalidPayload(`The multipart body cannot be read: ${(error as Error).message}.`);
  }
  return new Promise<T>((resolve, reject) => {
    let taken: Promise<T> | undefined;
    let refusal: AppError | undefined;
    const refuse = (error: AppError) => (refusal ??= error);
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || taken) {
        refuse(invalidPayload(`Send one file, in a part named "file" (not "${field}").`, [{ path: `/${field}`, message: 'is not the file part' }]));
        stream.resume();
        return;
      }
      const name = basename(info.filename?.replaceAll('\\', '/') ?? '').trim();
      if (!name || name.length > maxNameChars) {
        refuse(invalidPayload('The file part needs a file name of 1 to 255 characters.', [{ path: '/file', message: 'needs a file name' }]));
        stream.resume();
        return;
      }
      const contentType = info.mimeType && info.mimeType !== 'application/octet-stream' ? info.mimeType : null;
      taken = take({ name, contentType, bytes: stream });
      // Whatever `take` did not read (it refused the file) is read and dropped, so the request ends.
      taken.catch(() => stream.resume());
    });
    parser.on('filesLimit', () => refuse(invalidPayload('Send one file per request.', [{ path: '/file', message: 'must be one file' }])));
    parser.on('partsLimit', () => refuse(invalidPayload('The request has too many parts: send one file.')));
    parser.on('error', (error: Error) => reject(invalidPayload(`The multipart body cannot be read: ${error.message}.`)));
    parser.on('close', () => {
      if (refusal) {
        const refused = refusal;
        void taken?.then(undo).catch(() => undefined);
        reject(refused);
      } else if (!taken) reject(invalidPayload('The request has no file: send it in a part named "file".', [{ path: '/file', message: 'is required' }]));
      else resolve(taken);
    });
    ctx.req.on('error', (error) => reject(invalidPayload(`The upload was cut off: ${error.message}.`)));
    ctx.req.pipe(parser);
  });
}

export function fileTooLarge(maxBytes: number): AppError {
  return new AppError(
    413,
    'file_too_large',
    `The file is larger than the limit of ${(maxBytes / 1_048_576).toFixed(maxBytes % 1_048_576 === 0 ? 0 : 1)} MiB (${maxBytes} bytes, maxBytes).`,
  );
}
