import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/** Unix seconds now, shifted by `offsetSeconds`. */
export const unixNow = (offsetSeconds = 0) => Math.floor(Date.now() / 1000) + offsetSeconds;

/**
 * An HMAC identity token as a tenant's server signs one (docs/widget.md): the signature covers
 * `v1.<iat>.<exp>.<nonce>.<base64url(userId)>`.
 */
export function hmacIdentityToken(
  secret: string,
  userId: string,
  {
    iat = unixNow(),
    exp = iat + 300,
    nonce = randomBytes(16).toString('base64url'),
  }: { iat?: number; exp?: number; nonce?: string } = {},
): string {
  const signed = ['v1', iat, exp, nonce, Buffer.from(userId).toString('base64url')].join('.');
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

/** An HS256 JWT identity token; `header` and `claims` override the defaults (to forge odd ones). */
export function jwtIdentityToken(
  secret: string,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
): string {
  const iat = unixNow();
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${encode(header)}.${encode({ iat, exp: iat + 300, jti: randomUUID(), ...claims })}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}
