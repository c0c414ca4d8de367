/**
 * Shop platforms sign each webhook with `X-Shop-Hmac-Sha256`: the base64 HMAC-SHA256 of the raw body bytes,
 * keyed with the app's webhook secret. Verify the bytes as received, before any JSON parsing, since
 * re-serialised JSON is not the same bytes.
 */
import { hmacSha256, signedWith } from '#platform/hmac.js';

// Canonical base64 only: Node's decoder skips characters it does not know, so "not base64" must be caught here.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The `X-Shop-Hmac-Sha256` value the platform would send for these bytes. */
export function signShopWebhook(body: Buffer | string, secret: string): string {
  return hmacSha256(body, secret).toString('base64');
}

/**
 * Whether `signature` signs exactly these bytes with this secret, compared in constant time. An empty
 * secret never verifies: anyone can compute an HMAC with an empty key.
 */
export function verifyShopWebhook(body: Buffer, secret: string, signature: string | undefined): boolean {
  if (typeof signature !== 'string' || signature === '' || !BASE64.test(signature)) return false;
  return signedWith(body, secret, Buffer.from(signature, 'base64'));
}
