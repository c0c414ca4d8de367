import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Distinct, greppable prefixes, so a leaked secret is recognisable by secret scanners. */
export const secretKinds = {
  apiKey: 'kb_sk_',
  userToken: 'kb_ut_',
  operatorKey: 'op_',
  visitorToken: 'kb_vt_',
  visitorSession: 'kb_vs_',
} as const;

export type SecretKind = keyof typeof secretKinds;

/** 256 bits of randomness behind the kind's prefix. */
export function generateSecret(kind: SecretKind): string {
  return secretKinds[kind] + randomBytes(32).toString('base64url');
}

/**
 * Secrets are stored only as this hash. A plain SHA-256 suffices: the secrets are random and
 * 256 bits long, so there is nothing to guess, and the look-up stays O(1).
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The visible part of a key: its kind prefix and six random characters. */
export function visiblePrefix(secret: string): string {
  const kind = Object.values(secretKinds).find((prefix) => secret.startsWith(prefix)) ?? '';
  return secret.slice(0, kind.length + 6);
}

/** Compares two secrets in constant time, whatever their lengths. */
export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(hashSecret(given), 'hex'), Buffer.from(hashSecret(expected), 'hex'));
}
