import { createHmac } from 'node:crypto';
import test from 'ava';
import { signShopWebhook, verifyShopWebhook } from './webhook-signature.js';

const secret = 'whsec_0123456789abcdef';
const body = Buffer.from('{"id":7500000001,"title":"Summit Tent – 2 P"}');

test('a signature made for the body verifies, and is the base64 HMAC-SHA256 of its bytes', (t) => {
  const signature = signShopWebhook(body, secret);
  t.is(signature, createHmac('sha256', secret).update(body).digest('base64'));
  t.is(signShopWebhook(body.toString('utf8'), secret), signature, 'a string signs as its UTF-8 bytes');
  t.true(verifyShopWebhook(body, secret, signature));
});

test('one altered byte of the body fails', (t) => {
  const signature = signShopWebhook(body, secret);
  const altered = Buffer.from(body);
  altered[6] = altered[6]! ^ 1;
  t.false(verifyShopWebhook(altered, secret, signature));
});

test('a signature made with another secret fails', (t) => {
  t.false(verifyShopWebhook(body, secret, signShopWebhook(body, 'another-secret')));
});

test('a missing or empty signature fails, and so does an empty secret', (t) => {
  t.false(verifyShopWebhook(body, secret, undefined));
  t.false(verifyShopWebhook(body, secret, ''));
  t.false(verifyShopWebhook(body, '', signShopWebhook(body, '')));
});

test('a signature that is not base64 fails, even when it decodes to the right bytes leniently', (t) => {
  const signature = signShopWebhook(body, secret);
  t.false(verifyShopWebhook(body, secret, 'not base64!'));
  // Node's decoder skips unknown characters; a strict check must not.
  t.false(verifyShopWebhook(body, secret, `${signature.slice(0, 10)}*${signature.slice(10)}`));
  t.false(verifyShopWebhook(body, secret, Buffer.from(signature, 'base64').toString('hex')));
});

test('a signature of a different length fails without throwing', (t) => {
  const digest = createHmac('sha256', secret).update(body).digest();
  t.false(verifyShopWebhook(body, secret, digest.subarray(0, 31).toString('base64')));
  t.false(verifyShopWebhook(body, secret, Buffer.concat([digest, Buffer.from([0])]).toString('base64')));
  t.false(verifyShopWebhook(body, secret, createHmac('sha512', secret).update(body).digest('base64')));
});
