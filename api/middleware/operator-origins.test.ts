import test from 'ava';
import { isOriginAllowed } from './operator-origins.js';

test('an empty list allows every origin, and requests without one', (t) => {
  t.true(isOriginAllowed('https://anything.test', []));
  t.true(isOriginAllowed(undefined, []));
});

test('an exact domain matches that host on any scheme and port, and nothing else', (t) => {
  const patterns = ['example.com'];
  t.true(isOriginAllowed('https://example.com', patterns));
  t.true(isOriginAllowed('http://example.com:8080', patterns));
  t.true(isOriginAllowed('https://EXAMPLE.com', patterns));
  t.false(isOriginAllowed('https://www.example.com', patterns));
  t.false(isOriginAllowed('https://example.com.evil.test', patterns));
  t.false(isOriginAllowed('https://notexample.com', patterns));
});

test('a wildcard matches subdomains at any depth but not the domain itself', (t) => {
  const patterns = ['*.example.com'];
  t.true(isOriginAllowed('https://shop.example.com', patterns));
  t.true(isOriginAllowed('http://a.b.example.com', patterns));
  t.false(isOriginAllowed('https://example.com', patterns));
  t.false(isOriginAllowed('https://badexample.com', patterns));
  t.false(isOriginAllowed('https://example.com.evil.test', patterns));
});

test('a scheme and host match only that origin', (t) => {
  const patterns = ['https://app.example.com'];
  t.true(isOriginAllowed('https://app.example.com', patterns));
  t.false(isOriginAllowed('http://app.example.com', patterns));
  t.false(isOriginAllowed('https://app.example.com:8443', patterns));
  t.false(isOriginAllowed('https://other.example.com', patterns));
  t.true(isOriginAllowed('http://localhost:5173', ['http://localhost:5173']));
  t.false(isOriginAllowed('http://localhost:5174', ['http://localhost:5173']));
});

test('with patterns listed, a missing, opaque or non-web origin is refused', (t) => {
  for (const origin of [undefined, '', 'null', 'file://', 'chrome-extension://abc', 'not a url'])
    t.false(isOriginAllowed(origin, ['example.com']), String(origin));
});

test('international domains match in their punycode form', (t) => {
  t.true(isOriginAllowed('https://xn--bcher-kva.example', ['bücher.example']));
  t.true(isOriginAllowed('https://shop.xn--bcher-kva.example', ['*.bücher.example']));
});

test('any one matching pattern of several allows the origin', (t) => {
  const patterns = ['example.com', '*.shop.test', 'https://portal.example.org'];
  t.true(isOriginAllowed('https://x.shop.test', patterns));
  t.true(isOriginAllowed('https://portal.example.org', patterns));
  t.false(isOriginAllowed('https://example.org', patterns));
});

test('a port in a pattern must match; a scheme without a port means its default port', (t) => {
  t.true(isOriginAllowed('https://example.com:8443', ['example.com:8443']));
  t.true(isOriginAllowed('http://example.com:8443', ['example.com:8443']));
  t.false(isOriginAllowed('https://example.com', ['example.com:8443']));
  t.true(isOriginAllowed('https://app.example.com', ['https://app.example.com:443']));
  t.true(isOriginAllowed('https://a.example.com', ['https://*.example.com']));
  t.false(isOriginAllowed('http://a.example.com', ['https://*.example.com']));
});
