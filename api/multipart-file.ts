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
 * file is undone. The rest of a request whose file `take` refused (too large) is read and dropped (a
 * client sending a body hears the answer only once it has sent it).
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
    let settled = false;
    const settle = (answer: () => void) => {
      if (!settled) answer();
      settled = true;
    };
    // A file `take` refused: the parser is left (its file stream was ended by `take`), and the rest of
    // the request is read and dropped, so that the client hears the answer.
    const abandon = (error: unknown) => {
      ctx.req.unpipe(parser);
      ctx.req.resume();
      settle(() => reject(error));
    };
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
      taken.catch(abandon);
    });
    parser.on('filesLimit', () => refuse(invalidPayload('Send one file per request.', [{ path: '/file', message: 'must be one file' }])));
    parser.on('partsLimit', () => refuse(invalidPayload('The request has too many parts: send one file.')));
    parser.on('error', (error: Error) => abandon(invalidPayload(`The multipart body cannot be read: ${error.message}.`)));
    parser.on('close', () => {
      if (refusal) {
        const refused = refusal;
        void taken?.then(undo, () => undefined);
        settle(() => reject(refused));
      } else if (!taken) {
        settle(() => reject(invalidPayload('The request has no file: send it in a part named "file".', [{ path: '/file', message: 'is required' }])));
      } else {
        taken.then((value) => settle(() => resolve(value)), abandon);
      }
    });
    ctx.req.on('error', (error) => settle(() => reject(invalidPayload(`The upload was cut off: ${error.message}.`))));
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
