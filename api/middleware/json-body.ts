import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { AppError, invalidPayload } from '../errors.js';

/**
 * Parses JSON bodies up to `limitBytes`. A body in another format is 415, a larger one 413, and
 * one that is not JSON (or a bare string or number) 400 `invalid_payload`.
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limitBytes,
    jsonStrict: true,
    onError(error) {
      const status = (error as { status?: number }).status;
      if (status === 413) {
        throw new AppError(
          413,
          'payload_too_large',
          `The request body is larger than ${limitBytes} bytes: send fewer items or shorter content.`,
        );
      }
      if (status === 415) throw unsupportedMediaType();
      throw invalidPayload(`The request body is not valid JSON: ${error.message}.`);
    },
  });

  return async function jsonBody(ctx, next) {
    // A request without a body (a bodiless POST sends Content-Length: 0) has nothing to parse.
    if (ctx.request.length === 0 || (ctx.request.length === undefined && !ctx.get('transfer-encoding'))) return next();
    const type = ctx.request.is('json');
    if (type === false) throw unsupportedMediaType();
    await parse(ctx, next);
  };
}

function unsupportedMediaType() {
  return new AppError(415, 'unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
}
