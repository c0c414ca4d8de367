/**
 * The two secrets of a messaging webhook. Deliveries (POST) carry `X-Hub-Signature-256:
 * sha256=<hex>`, an HMAC-SHA256 of the raw body bytes keyed with the Meta app's secret; the
 * verification handshake (GET) carries the verify token our service generated for the connection.
 * Both are compared in constant time so that response timing tells an attacker nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { hmacSha256, signedWith } from '#platform/hmac.js';

const prefix = 'sha256=';

/** The `X-Hub-Signature-256` value the platform would send for these bytes. */
export function signBody(rawBody: Buffer | string, appSecret: string): string {
  return prefix + hmacSha256(rawBody, appSecret).toString('hex');
}

/**
 * Whether the header signs exactly these bytes: check the body as received, before any parsing,
 * since re-serialised JSON is not the same bytes (the platform escapes non-ASCII as `\uXXXX`).
 * An empty app secret never verifies: anyone can compute an HMAC with an empty key, and a
 * connection without its secret is not ready to take deliveries.
 */
export function verifySignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith(prefix)) return false;
  const hex = header.slice(prefix.length);
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  return signedWith(rawBody, appSecret, Buffer.from(hex, 'hex'));
}

/**
 * Whether the `hub.verify_token` of a handshake is the stored one, exactly. Both are hashed first
 * so that `timingSafeEqual` always sees equal lengths and the length of the token does not leak.
 */
export function verifyTokenMatches(given: string | undefined, stored: string): boolean {
  if (typeof given !== 'string' || stored === '') return false;
  return timingSafeEqual(sha256(given), sha256(stored));
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
