import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `body` keyed with `secret`: how webhook senders sign the exact bytes they send. */
export function hmacSha256(body: Buffer | string, secret: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/**
 * Whether `digest` (the signature a webhook header carried, decoded) is the HMAC-SHA256 of exactly
 * these bytes under `secret`, compared in constant time. An empty secret never verifies: anyone can
 * compute an HMAC with an empty key.
 */
export function signedWith(body: Buffer, secret: string, digest: Buffer): boolean {
  if (secret === '' || digest.length !== 32) return false;
  return timingSafeEqual(digest, hmacSha256(body, secret));
}
