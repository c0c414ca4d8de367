import { createHmac } from 'node:crypto';
import test from 'ava';
import { hmacIdentityToken, jwtIdentityToken, unixNow } from '#testing/identity.js';
import {
  checkTokenTimes,
  IdentityTokenError,
  identityTokenRules,
  parseIdentityToken,
  signedWithSecret,
  type IdentityFailure,
} from './identity-token.js';

const secret = 'kb_is_' + 'x'.repeat(43);

const failure = (t: any, run: () => unknown, reason: IdentityFailure) => {
  const error = t.throws(run, { instanceOf: IdentityTokenError });
  t.is(error?.reason, reason, error?.message);
};

test('an HMAC token is read, signed over exactly v1.<iat>.<exp>.<nonce>.<base64url(userId)>', (t) => {
  const iat = unixNow();
  const token = hmacIdentityToken(secret, 'user:42 Zoë', { iat, exp: iat + 600, nonce: 'n0nce-n0nce-n0nce' });
  const parsed = parseIdentityToken(token);
  t.like(parsed.claims, {
    shape: 'hmac',
    userId: 'user:42 Zoë',
    issuedAt: iat,
    expiresAt: iat + 600,
    nonce: 'n0nce-n0nce-n0nce',
  });
  const signed = `v1.${iat}.${iat + 600}.n0nce-n0nce-n0nce.${Buffer.from('user:42 Zoë').toString('base64url')}`;
  t.is(parsed.signingInput.toString(), signed);
  t.is(token, `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`);
  t.true(signedWithSecret(parsed, secret));
  t.false(signedWithSecret(parsed, secret + 'x'));
  t.notThrows(() => checkTokenTimes(parsed.claims, iat));
});

test('a JWT signed with HS256 is read with its optional name and e-mail', (t) => {
  const token = jwtIdentityToken(secret, { sub: 'u-1', name: 'Ada', email: 'ada@example.com', jti: 'jti-0123456789abcdef' });
  const parsed = parseIdentityToken(token);
  t.like(parsed.claims, { shape: 'jwt', userId: 'u-1', name: 'Ada', email: 'ada@example.com', nonce: 'jti-0123456789abcdef' });
  t.true(signedWithSecret(parsed, secret));
});

test('a changed claim, user id or signature no longer verifies', (t) => {
  const hmac = hmacIdentityToken(secret, 'alice');
  const parts = hmac.split('.');
  parts[4] = Buffer.from('mallory').toString('base64url');
  t.false(signedWithSecret(parseIdentityToken(parts.join('.')), secret));

  const jwt = jwtIdentityToken(secret, { sub: 'alice' }).split('.');
  const payload = JSON.parse(Buffer.from(jwt[1]!, 'base64url').toString());
  jwt[1] = Buffer.from(JSON.stringify({ ...payload, sub: 'mallory' })).toString('base64url');
  t.false(signedWithSecret(parseIdentityToken(jwt.join('.')), secret));
  // A signature changed in its last character (base64url's padding bits included) is refused.
  const last = hmac.at(-1) === 'A' ? 'B' : 'A';
  const tampered = hmac.slice(0, -1) + last;
  t.throws(() => {
    if (!signedWithSecret(parseIdentityToken(tampered), secret)) throw new IdentityTokenError('bad_signature', 'x');
  });
});

test('JWTs with another algorithm, none, or crit headers are refused before any signature check', (t) => {
  for (const header of [
    { alg: 'none' },
    { alg: 'HS512' },
    { alg: 'RS256' },
    { alg: 'HS256', crit: ['exp'] },
    { alg: 'HS256', typ: 'JOSE+JSON' },
  ])
    failure(t, () => parseIdentityToken(jwtIdentityToken(secret, { sub: 'u' }, header)), 'malformed');
  failure(t, () => parseIdentityToken('a.b'), 'malformed');
  failure(t, () => parseIdentityToken('v1.1.2.short.dQ.AAAA'), 'malformed');
  failure(t, () => parseIdentityToken(jwtIdentityToken(secret, { sub: 'u', jti: 'short' })), 'malformed');
  failure(t, () => parseIdentityToken(jwtIdentityToken(secret, { sub: 42 })), 'malformed');
  failure(t, () => parseIdentityToken(jwtIdentityToken(secret, { sub: 'u', exp: '9999999999' })), 'malformed');
  failure(t, () => parseIdentityToken(hmacIdentityToken(secret, 'line\nbreak')), 'malformed');
  failure(t, () => parseIdentityToken('v1.' + 'x'.repeat(identityTokenRules.maxLength)), 'malformed');
});

test('times: expired and not yet valid beyond the skew are refused, within it accepted; lifetimes are bounded', (t) => {
  const skew = identityTokenRules.clockSkewSeconds;
  const now = unixNow();
  const claims = (iat: number, exp: number, extra: Record<string, unknown> = {}) =>
    parseIdentityToken(jwtIdentityToken(secret, { sub: 'u', iat, exp, ...extra })).claims;

  t.notThrows(() => checkTokenTimes(claims(now - 300, now - skew + 1), now), 'expired less than the skew ago');
  failure(t, () => checkTokenTimes(claims(now - 300, now - skew), now), 'expired');
  t.notThrows(() => checkTokenTimes(claims(now + skew, now + 300), now), 'issued within the skew ahead');
  failure(t, () => checkTokenTimes(claims(now + skew + 1, now + 300), now), 'not_yet_valid');
  failure(t, () => checkTokenTimes(claims(now, now + 300, { nbf: now + skew + 1 }), now), 'not_yet_valid');
  t.notThrows(() => checkTokenTimes(claims(now, now + identityTokenRules.maxLifetimeSeconds), now));
  failure(t, () => checkTokenTimes(claims(now, now + identityTokenRules.maxLifetimeSeconds + 1), now), 'lifetime_too_long');
  failure(t, () => checkTokenTimes(claims(now, now), now), 'malformed');
});
