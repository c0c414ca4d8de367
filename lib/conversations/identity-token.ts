import { signedWith } from '#platform/hmac.js';

/**
 * Visitor identity tokens: the tenant's server vouches for its signed-in user by signing them with
 * the operator's identity secret, in one of two shapes (docs/widget.md, "Visitor identity"):
 *
 * - HMAC: `v1.<iat>.<exp>.<nonce>.<base64url(userId)>.<signature>`, where the signature is the
 *   base64url HMAC-SHA256, keyed with the secret, of everything before the last dot
 *   (`v1.<iat>.<exp>.<nonce>.<base64url(userId)>`). Times are Unix seconds; the nonce is 16 to 128
 *   characters of [A-Za-z0-9_-].
 * - JWT (RFC 7519) signed with HS256 and the same secret: `sub` (the user id), `iat`, `exp`, `jti`,
 *   optionally `nbf`, `name`, `email`.
 *
 * Both are checked with the clock skew and the longest lifetime below; the nonce (`jti`) is what
 * the replay check remembers (`visitor-identity.ts`). Nothing here reads a clock or a store.
 */
export const identityTokenRules = {
  /** How far the tenant's clock and ours may disagree, either way. */
  clockSkewSeconds: 60,
  /** The longest `exp - iat` accepted. */
  maxLifetimeSeconds: 3600,
  /** The longest token read at all. */
  maxLength: 4096,
} as const;

export interface IdentityClaims {
  shape: 'hmac' | 'jwt';
  userId: string;
  /** Unix seconds. */
  issuedAt: number;
  expiresAt: number;
  notBefore?: number;
  /** The HMAC shape's nonce or the JWT's `jti`: a token is taken once. */
  nonce: string;
  name?: string;
  email?: string;
}

/** Why a token was refused; the message says it in words, never with the token or the secret. */
export type IdentityFailure =
  'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'lifetime_too_long' | 'replayed' | 'no_secret';

export class IdentityTokenError extends Error {
  constructor(
    readonly reason: IdentityFailure,
    message: string,
  ) {
    super(message);
    this.name = 'IdentityTokenError';
  }
}

/** A token read but not yet verified: its claims, and what its signature covers. */
export interface ParsedIdentityToken {
  claims: IdentityClaims;
  signingInput: Buffer;
  signature: Buffer;
}

const malformed = (why: string) => new IdentityTokenError('malformed', `The identity token is malformed: ${why}.`);
const seconds = /^[0-9]{1,12}$/;
const nonceFormat = /^[A-Za-z0-9_-]{16,128}$/;
const base64url = /^[A-Za-z0-9_-]*$/;

/** Reads either shape; throws IdentityTokenError `malformed` for anything else. */
export function parseIdentityToken(token: string): ParsedIdentityToken {
  if (token.length > identityTokenRules.maxLength) throw malformed(`longer than ${identityTokenRules.maxLength} characters`);
  return token.startsWith('v1.') ? parseHmacToken(token) : parseJwt(token);
}

function parseHmacToken(token: string): ParsedIdentityToken {
  const parts = token.split('.');
  if (parts.length !== 6) throw malformed('an HMAC token has six dot-separated parts');
  const [, iat, exp, nonce, encodedUserId, signature] = parts as [string, string, string, string, string, string];
  if (!seconds.test(iat) || !seconds.test(exp)) throw malformed('iat and exp must be Unix times in whole seconds');
  if (!nonceFormat.test(nonce)) throw malformed('the nonce must be 16 to 128 characters of A-Z, a-z, 0-9, _ and -');
  const userId = decodeText(encodedUserId);
  return {
    claims: { shape: 'hmac', userId: checkUserId(userId), issuedAt: Number(iat), expiresAt: Number(exp), nonce },
    signingInput: Buffer.from(parts.slice(0, 5).join('.'), 'ascii'),
    signature: decodeBytes(signature),
  };
}

function parseJwt(token: string): ParsedIdentityToken {
  const parts = token.split('.');
  if (parts.length !== 3) throw malformed('not an HMAC token (v1.…) nor a JWT (three dot-separated parts)');
  const [encodedHeader, encodedPayload, signature] = parts as [string, string, string];
  const header = decodeJson(encodedHeader, 'header');
  if (header.alg !== 'HS256') throw malformed('the JWT must be signed with HS256 (alg)');
  if (header.typ !== undefined && header.typ !== 'JWT') throw malformed('the JWT typ must be JWT when given');
  if (header.crit !== undefined) throw malformed('crit headers are not supported');
  const payload = decodeJson(encodedPayload, 'payload');
  const { sub, iat, exp, nbf, jti, name, email } = payload;
  if (typeof sub !== 'string') throw malformed('sub (the user id) must be a string');
  if (!isSeconds(iat) || !isSeconds(exp)) throw malformed('iat and exp must be NumericDates (Unix seconds)');
  if (nbf !== undefined && !isSeconds(nbf)) throw malformed('nbf must be a NumericDate when given');
  if (typeof jti !== 'string' || jti.length < 16 || jti.length > 128)
    throw malformed('jti must be a string of 16 to 128 characters');
  if (name !== undefined && !(typeof name === 'string' && name.length >= 1 && name.length <= 200))
    throw malformed('name must be a string of 1 to 200 characters when given');
  if (email !== undefined && !(typeof email === 'string' && /^[^\s@]+@[^\s@]+$/.test(email) && email.length <= 320))
    throw malformed('email must be an e-mail address when given');
  return {
    claims: {
      shape: 'jwt',
      userId: checkUserId(sub),
      issuedAt: Math.floor(iat),
      expiresAt: Math.floor(exp),
      ...(nbf !== undefined ? { notBefore: Math.floor(nbf) } : {}),
      nonce: jti,
      ...(name !== undefined ? { name } : {}),
      ...(email !== undefined ? { email } : {}),
    },
    signingInput: Buffer.from(`${encodedHeader}.${encodedPayload}`, 'ascii'),
    signature: decodeBytes(signature),
  };
}

/** Whether the token was signed with `secret` (HMAC-SHA256, compared in constant time). */
export function signedWithSecret(token: ParsedIdentityToken, secret: string): boolean {
  return signedWith(token.signingInput, secret, token.signature);
}

/** Throws unless the token is valid at `nowSeconds`, within the skew, and no longer-lived than allowed. */
export function checkTokenTimes(claims: IdentityClaims, nowSeconds: number): void {
  const { clockSkewSeconds: skew, maxLifetimeSeconds } = identityTokenRules;
  if (claims.expiresAt <= claims.issuedAt) throw malformed('exp must be after iat');
  if (claims.expiresAt - claims.issuedAt > maxLifetimeSeconds)
    throw new IdentityTokenError(
      'lifetime_too_long',
      `The identity token lives longer than ${maxLifetimeSeconds} s (exp - iat): sign short-lived tokens.`,
    );
  if (claims.expiresAt + skew <= nowSeconds)
    throw new IdentityTokenError('expired', 'The identity token has expired: sign a fresh one for each page.');
  const validFrom = Math.max(claims.issuedAt, claims.notBefore ?? claims.issuedAt);
  if (validFrom - skew > nowSeconds)
    throw new IdentityTokenError(
      'not_yet_valid',
      `The identity token is not valid yet (iat or nbf more than ${skew} s ahead): check the signing server's clock.`,
    );
}

function checkUserId(userId: string): string {
  if (userId.length < 1 || userId.length > 200) throw malformed('the user id must be 1 to 200 characters');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(userId)) throw malformed('the user id must not contain control characters');
  return userId;
}

const isSeconds = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value < 1e12;

/** Strict base64url: one spelling per byte string, so a changed character always changes the bytes. */
function decodeBytes(text: string): Buffer {
  const bytes = base64url.test(text) ? Buffer.from(text, 'base64url') : undefined;
  if (!bytes || bytes.toString('base64url') !== text) throw malformed('a part is not base64url');
  return bytes;
}

function decodeText(text: string): string {
  const bytes = decodeBytes(text);
  const decoded = bytes.toString('utf8');
  if (!Buffer.from(decoded, 'utf8').equals(bytes)) throw malformed('the user id is not UTF-8');
  return decoded;
}

function decodeJson(text: string, part: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(decodeText(text));
  } catch (error) {
    if (error instanceof IdentityTokenError) throw error;
    throw malformed(`the JWT ${part} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(`the JWT ${part} is not an object`);
  return value as Record<string, unknown>;
}
