import test from 'ava';
import { canonicalUrl, isDocumentLink, looksLikeNonPage, normalizeUrl } from './urls.js';

/*
 * A page's identity: however a site writes a link, one page is one string, and two pages never share one.
 */

const normalized: Array<[input: string, expected: string]> = [
  // Scheme and host in lower case, IDN as punycode, default ports dropped, a root path added.
  ['HTTP://EXAMPLE.COM', 'http://example.com/'],
  ['https://Docs.Example.com/Guide', 'https://docs.example.com/Guide'],
  ['http://example.com:80/a', 'http://example.com/a'],
  ['https://example.com:443/a', 'https://example.com/a'],
  ['https://example.com:8443/a', 'https://example.com:8443/a'],
  ['http://example.com:443/a', 'http://example.com:443/a'],
  ['http://münchen.de/', 'http://xn--mnchen-3ya.de/'],
  ['http://[::1]:8080/', 'http://[::1]:8080/'],
  // Fragments and credentials go.
  ['https://example.com/a#section-2', 'https://example.com/a'],
  ['https://example.com/a#', 'https://example.com/a'],
  ['https://user:secret@example.com/a', 'https://example.com/a'],
  ['https://user@example.com/a', 'https://example.com/a'],
  // Dot segments resolved, `//` collapsed, case and trailing slash kept.
  ['https://example.com/a/./b/../c', 'https://example.com/a/c'],
  ['https://example.com/a/b/../../../c', 'https://example.com/c'],
  ['https://example.com/a//b///c', 'https://example.com/a/b/c'],
  ['https://example.com//a', 'https://example.com/a'],
  ['https://example.com/a//../b', 'https://example.com/a/b'],
  ['https://example.com/Docs/Guide/', 'https://example.com/Docs/Guide/'],
  ['https://example.com/docs/guide', 'https://example.com/docs/guide'],
  // Percent-encoding as WHATWG URL writes it, escapes in upper case.
  ['https://example.com/a b', 'https://example.com/a%20b'],
  ['https://example.com/café', 'https://example.com/caf%C3%A9'],
  ['https://example.com/caf%c3%a9', 'https://example.com/caf%C3%A9'],
  ['https://example.com/a%2fb', 'https://example.com/a%2Fb'],
  ['https://example.com/%7euser', 'https://example.com/%7Euser'],
  ['https://example.com/?q=caf%c3%a9', 'https://example.com/?q=caf%C3%A9'],
  ['https://example.com/?q=a b', 'https://example.com/?q=a%20b'],
  ['https://example.com/?q=é', 'https://example.com/?q=%C3%A9'],
  ['https://example.com/%zz', 'https://example.com/%zz'],
  // Tabs and newlines inside, spaces around: what HTML attributes carry.
  ['  https://example.com/a\n/b  ', 'https://example.com/a/b'],
  // Tracking parameters go, whatever their case; the rest are sorted by name, stably.
  ['https://example.com/a?utm_source=x&utm_medium=y&id=3', 'https://example.com/a?id=3'],
  ['https://example.com/a?UTM_Campaign=x&id=3', 'https://example.com/a?id=3'],
  ['https://example.com/a?gclid=1&fbclid=2&msclkid=3&mc_cid=4&mc_eid=5&_hsenc=6&_hsmi=7&page=2', 'https://example.com/a?page=2'],
  ['https://example.com/a?utm%5Fsource=x&b=1', 'https://example.com/a?b=1'],
  ['https://example.com/a?utm=keep', 'https://example.com/a?utm=keep'],
  ['https://example.com/a?b=2&a=1&c=3', 'https://example.com/a?a=1&b=2&c=3'],
  ['https://example.com/a?tag=z&page=1&tag=a', 'https://example.com/a?page=1&tag=z&tag=a'],
  ['https://example.com/a?B=1&a=2', 'https://example.com/a?B=1&a=2'],
  // Pairs keep their bytes: no `=` added, `+` and `%20` left as written.
  ['https://example.com/a?print&lang=en', 'https://example.com/a?lang=en&print'],
  ['https://example.com/a?q=a+b', 'https://example.com/a?q=a+b'],
  ['https://example.com/a?q=a%20b', 'https://example.com/a?q=a%20b'],
  ['https://example.com/a?x=1&&y=2&', 'https://example.com/a?x=1&y=2'],
  // An empty query, or one of tracking parameters only, leaves no `?`.
  ['https://example.com/a?', 'https://example.com/a'],
  ['https://example.com/a?&&', 'https://example.com/a'],
  ['https://example.com/a?utm_source=newsletter', 'https://example.com/a'],
  ['https://example.com/a?utm_source=x#top', 'https://example.com/a'],
];

for (const [input, expected] of normalized) {
  test(`normalizeUrl(${JSON.stringify(input)})`, (t) => {
    t.is(normalizeUrl(input), expected);
  });
}

test('normalizing a normalized URL changes nothing', (t) => {
  for (const [, expected] of normalized) t.is(normalizeUrl(expected), expected);
});

test('relative links resolve against the base', (t) => {
  const base = 'https://example.com/docs/guide/intro?x=1#a';
  t.is(normalizeUrl('setup', base), 'https://example.com/docs/guide/setup');
  t.is(normalizeUrl('../api/', base), 'https://example.com/docs/api/');
  t.is(normalizeUrl('/blog?utm_source=nav', base), 'https://example.com/blog');
  t.is(normalizeUrl('//cdn.example.com/a', base), 'https://cdn.example.com/a');
  t.is(normalizeUrl('?page=2', base), 'https://example.com/docs/guide/intro?page=2');
  t.is(normalizeUrl('#b', base), 'https://example.com/docs/guide/intro?x=1');
  t.is(normalizeUrl('', base), 'https://example.com/docs/guide/intro?x=1');
  t.is(normalizeUrl('HTTPS://Other.Example/X', base), 'https://other.example/X');
});

test('only http and https are pages', (t) => {
  for (const input of [
    'mailto:help@example.com',
    'tel:+441234567',
    'javascript:void(0)',
    'ftp://example.com/file',
    'file:///etc/passwd',
    'data:text/html,hi',
    'ws://example.com/socket',
  ]) {
    t.is(normalizeUrl(input), undefined, input);
    t.is(normalizeUrl(input, 'https://example.com/'), undefined, input);
  }
});

test('what is not a URL is undefined', (t) => {
  t.is(normalizeUrl('not a url'), undefined);
  t.is(normalizeUrl('/relative/without/base'), undefined);
  t.is(normalizeUrl('https://'), undefined);
  t.is(normalizeUrl('https://exa mple.com/'), undefined);
  t.is(normalizeUrl('x', 'not a base'), undefined);
});

const inAnyScope = () => true;

test('a canonical in scope on the same host is the identity', (t) => {
  t.is(canonicalUrl('https://example.com/a?utm_source=x&ref=1', 'https://example.com/a', inAnyScope), 'https://example.com/a');
  t.is(canonicalUrl('https://example.com/docs/a/', '../b/', inAnyScope), 'https://example.com/docs/b/');
  t.is(canonicalUrl('https://example.com/a', ' /A#top ', inAnyScope), 'https://example.com/A');
});

test('the scheme may change, the host and port may not', (t) => {
  t.is(canonicalUrl('http://example.com/a', 'https://example.com/a', inAnyScope), 'https://example.com/a');
  t.is(canonicalUrl('https://example.com/a', 'https://www.example.com/a', inAnyScope), 'https://example.com/a');
  t.is(canonicalUrl('https://example.com/a', 'https://other.example/a', inAnyScope), 'https://example.com/a');
  t.is(canonicalUrl('https://example.com/a', 'https://example.com:8443/a', inAnyScope), 'https://example.com/a');
});

test('a canonical out of scope is ignored', (t) => {
  const onlyDocs = (url: string) => new URL(url).pathname.startsWith('/docs/');
  t.is(canonicalUrl('https://example.com/docs/a', 'https://example.com/blog/a', onlyDocs), 'https://example.com/docs/a');
  t.is(canonicalUrl('https://example.com/docs/a?v=2', '/docs/a', onlyDocs), 'https://example.com/docs/a');
});

test('no canonical, or one that is not a page, leaves the normalized page URL', (t) => {
  t.is(canonicalUrl('https://example.com/a#x', undefined, inAnyScope), 'https://example.com/a');
  t.is(canonicalUrl('https://example.com/a', '', inAnyScope), 'https://example.com/a');
  t.is(canonicalUrl('https://example.com/a', 'mailto:x@example.com', inAnyScope), 'https://example.com/a');
  t.is(canonicalUrl('https://example.com/a', 'https://exa mple.com/', inAnyScope), 'https://example.com/a');
  t.is(canonicalUrl('not a url', '/a', inAnyScope), 'not a url');
});

test('the scope check sees the normalized canonical', (t) => {
  const seen: string[] = [];
  canonicalUrl('https://example.com/a', '/b?utm_source=x#top', (url) => {
    seen.push(url);
    return true;
  });
  t.deepEqual(seen, ['https://example.com/b']);
});

test('documents by extension, whatever its case, never by the query', (t) => {
  t.is(isDocumentLink('https://example.com/files/Report.pdf'), 'pdf');
  t.is(isDocumentLink('https://example.com/files/REPORT.PDF'), 'pdf');
  t.is(isDocumentLink('https://example.com/files/terms.docx?v=3#p2'), 'docx');
  t.is(isDocumentLink('https://example.com/files/terms.doc'), undefined);
  t.is(isDocumentLink('https://example.com/download?file=terms.pdf'), undefined);
  t.is(isDocumentLink('https://example.com/pdf/'), undefined);
  t.is(isDocumentLink('https://example.com/pdf'), undefined);
  t.is(isDocumentLink('https://example.com/a.pdf/'), undefined);
  t.is(isDocumentLink('https://example.com/file.'), undefined);
  t.is(isDocumentLink('not a url.pdf'), undefined);
});

test('non-pages by extension', (t) => {
  for (const path of [
    'logo.PNG',
    'a.jpg',
    'a.svg',
    'v.mp4',
    'a.mp3',
    'x.zip',
    'x.tar.gz',
    'f.woff2',
    's.css',
    'app.js',
    'feed.xml',
    'sheet.xlsx',
  ]) {
    t.true(looksLikeNonPage(`https://example.com/static/${path}?v=1`), path);
  }
  for (const path of [
    '',
    'docs/',
    'guide',
    'guide.html',
    'index.htm',
    'page.php',
    'a.aspx',
    'report.pdf',
    'terms.docx',
    'v1.2/notes',
  ]) {
    t.false(looksLikeNonPage(`https://example.com/${path}`), path);
  }
  t.false(looksLikeNonPage('https://example.com/image?format=png'));
  t.false(looksLikeNonPage('not a url.png'));
});
