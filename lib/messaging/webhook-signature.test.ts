import test from 'ava';
import { platformJson } from '#testing/fake-messaging-platform.js';
import { signBody, verifySignature, verifyTokenMatches } from './webhook-signature.js';

const appSecret = 'app-secret-0123456789abcdef';
const raw = Buffer.from(platformJson({ object: 'whatsapp_business_account', entry: [{ emoji: '👍', name: 'Zoë' }] }));

test('a signature over the raw bytes verifies; a re-serialised body does not', (t) => {
  const header = signBody(raw, appSecret);
  t.regex(header, /^sha256=[0-9a-f]{64}$/);
  t.true(verifySignature(raw, header, appSecret));
  t.true(verifySignature(raw, header.toUpperCase().replace('SHA256=', 'sha256='), appSecret));

  const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
  t.notDeepEqual(reserialised, raw);
  t.false(verifySignature(reserialised, header, appSecret));
});

test('a missing, malformed or foreign signature never verifies', (t) => {
  const hex = signBody(raw, appSecret).slice('sha256='.length);
  for (const header of [
    undefined,
    '',
    hex,
    `sha1=${hex}`,
    `sha256=${hex.slice(2)}`,
    `sha256=${hex}00`,
    `sha256=${'z'.repeat(64)}`,
    `sha256= ${hex}`,
  ]) {
    t.false(verifySignature(raw, header, appSecret), String(header));
  }
  t.false(verifySignature(raw, signBody(raw, 'another-secret'), appSecret));
  t.false(verifySignature(Buffer.concat([raw, Buffer.from(' ')]), signBody(raw, appSecret), appSecret));
});

test('without an app secret nothing verifies, not even a signature made with the empty key', (t) => {
  t.false(verifySignature(raw, signBody(raw, ''), ''));
});

test('the verify token must match exactly', (t) => {
  t.true(verifyTokenMatches('vt_abc123', 'vt_abc123'));
  for (const given of [undefined, '', 'vt_abc12', 'vt_abc1234', 'VT_ABC123', ' vt_abc123'])
    t.false(verifyTokenMatches(given, 'vt_abc123'));
  t.false(verifyTokenMatches('', ''));
});
