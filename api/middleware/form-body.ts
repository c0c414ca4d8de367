import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { AppError } from '../errors.js';

/**
 * Parses form bodies (`application/x-www-form-urlencoded`, what a plain HTML form posts) up to
 * `limitBytes`. A body in another format is 415, a larger one 413.
 */
export function formBody(limitBytes: number): Middleware {
  const parse = bodyParser({
    enableTypes: ['form'],
    formLimit: limitBytes,
    onError(error) {
      if ((error as { status?: number }).status === 413)
        throw new AppError(413, 'payload_too_large', `The form is larger than ${limitBytes} bytes.`);
      throw unsupportedMediaType();
    },
  });

  return async function formBody(ctx, next) {
    if (!ctx.request.is('urlencoded')) throw unsupportedMediaType();
    await parse(ctx, next);
  };
}

function unsupportedMediaType() {
  return new AppError(415, 'unsupported_media_type', 'Send the form with Content-Type: application/x-www-form-urlencoded.');
}
