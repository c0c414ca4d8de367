import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { AppError, invalidPayload } from './errors.js';

/** The request's exact bytes, for webhooks signed over them (the JSON body parser skips `/webhooks/`). */
export async function readRawBody(ctx: Context, limitBytes: number): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit: limitBytes, length: ctx.get('content-length') || undefined });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large')
      throw new AppError(413, 'payload_too_large', `A delivery is at most ${limitBytes} bytes.`);
    throw invalidPayload('The delivery body could not be read.');
  }
}
