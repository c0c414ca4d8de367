import { randomBytes } from 'node:crypto';
import test from 'ava';
import { createSecretBox, keyIdOf, SecretBoxError } from './secret-box.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const aad = 'tenant-1:connection-1:accessToken';

test('a sealed value opens to the plaintext, and reads v1.<keyId>.<iv>.<tag>.<ciphertext>', (t) => {
  const box = createSecretBox({ current: keyA });
  for (const plaintext of ['EAAG-secret-token', '', 'ünïcödé 👍']) {
    const sealed = box.seal(plaintext, aad);
    t.is(box.open(sealed, aad), plaintext);
    t.false(sealed.includes(plaintext) && plaintext !== '');
  }
  const [version, keyId, iv, tag, ciphertext] = box.seal('hello').split('.');
  t.is(version, 'v1');
  t.is(keyId, keyIdOf(keyA));
  t.regex(keyId!, /^[0-9a-f]{8}$/);
  t.is(Buffer.from(iv!, 'base64url').length, 12);
  t.is(Buffer.from(tag!, 'base64url').length, 16);
  t.is(Buffer.from(ciphertext!, 'base64url').length, 5);
});

test('every seal draws a new IV', (t) => {
  const box = createSecretBox({ current: keyA });
  const sealed = Array.from({ length: 20 }, () => box.seal('same plaintext', aad));
  t.is(new Set(sealed).size, sealed.length);
  t.is(new Set(sealed.map((s) => s.split('.')[2])).size, sealed.length);
});

test('changing any character of a sealed value makes it fail to open', (t) => {
  const box = createSecretBox({ current: keyA });
  const sealed = box.seal('EAAG-secret-token', aad);
  for (let i = 0; i < sealed.length; i++) {
    if (sealed[i] === '.') continue;
    const replacement = sealed[i] === 'A' ? 'B' : 'A';
    const tampered = sealed.slice(0, i) + replacement + sealed.slice(i + 1);
    t.throws(() => box.open(tampered, aad), { instanceOf: SecretBoxError }, `character ${i} changed`);
  }
  t.throws(() => box.open(sealed + 'A', aad), { instanceOf: SecretBoxError });
  t.throws(() => box.open(sealed.split('.').slice(0, 4).join('.'), aad), { instanceOf: SecretBoxError });
  t.throws(() => box.open('not sealed at all', aad), { instanceOf: SecretBoxError, message: /malformed/ });
});

test('a value bound to one record does not open for another', (t) => {
  const box = createSecretBox({ current: keyA });
  const sealed = box.seal('EAAG-secret-token', aad);
  for (const other of [
    'tenant-2:connection-1:accessToken',
    'tenant-1:connection-2:accessToken',
    'tenant-1:connection-1:appSecret',
  ]) {
    const error = t.throws(() => box.open(sealed, other), { instanceOf: SecretBoxError });
    t.is(error?.reason, 'tampered');
    t.regex(error!.message, /tampered with or belongs to another record/);
  }
  t.throws(() => box.open(sealed), { instanceOf: SecretBoxError }, 'nor without its binding');
});

test('a previous key still opens what it sealed, and such values need resealing', (t) => {
  const before = createSecretBox({ current: keyA });
  const old = before.seal('EAAG-secret-token', aad);
  t.false(before.needsResealing(old));

  const after = createSecretBox({ current: keyB, previous: [keyA] });
  t.is(after.open(old, aad), 'EAAG-secret-token');
  t.true(after.needsResealing(old));
  const resealed = after.seal(after.open(old, aad), aad);
  t.false(after.needsResealing(resealed));
  t.is(resealed.split('.')[1], keyIdOf(keyB));
  t.throws(() => before.open(resealed, aad), { instanceOf: SecretBoxError, message: /not configured/ });
});

test('a value sealed with a key that is not configured says so, naming only the key id', (t) => {
  const sealed = createSecretBox({ current: keyA }).seal('EAAG-secret-token', aad);
  const error = t.throws(() => createSecretBox({ current: keyB }).open(sealed, aad), { instanceOf: SecretBoxError });
  t.is(error?.reason, 'unknown_key');
  t.regex(error!.message, /sealed with a key that is not configured/);
  t.true(error!.message.includes(keyIdOf(keyA)));
  t.false(error!.message.includes(keyA.toString('base64')));
});

test('keys must be 32 bytes', (t) => {
  t.throws(() => createSecretBox({ current: randomBytes(16) }), { message: /32 bytes/ });
  t.throws(() => createSecretBox({ current: keyA, previous: [randomBytes(31)] }), { message: /32 bytes/ });
});
