import { hmacSha256 } from '#platform/hmac.js';

/** Header names of a signed delivery (lower case, as Node reads them). */
export const signatureHeaders = {
  signature: 'x-signature-256',
  timestamp: 'x-event-timestamp',
  eventId: 'x-event-id',
  eventType: 'x-event-type',
} as const;

/** How far a receiver should let a delivery's timestamp be from its own clock (docs/outbound-events.md). */
export const signatureToleranceSeconds = 300;

/**
 * The signature of a delivery: `sha256=` and the hex HMAC-SHA256, keyed with the endpoint's signing
 * secret, of `<timestamp>.<raw body>`, where the timestamp is the `X-Event-Timestamp` header
 * (Unix seconds). Binding the timestamp lets a receiver refuse an old delivery replayed.
 */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `sha256=${hmacSha256(`${timestamp}.${body}`, secret).toString('hex')}`;
}
