import test from 'ava';
import { gzipSync } from 'node:zlib';
import { parseSitemap, SitemapError } from './sitemaps.js';

/*
 * Sitemaps as sites publish them: XML with and without namespaces, gzipped or not, plain text; and what is not a
 * sitemap (an HTML page, garbage, a gzip bomb) refused by name.
 */

const sitemapUrl = 'https://example.com/sitemap.xml';
const bytes = (text: string) => new TextEncoder().encode(text);

function urlset(entries: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`;
}

test('a urlset', (t) => {
  const xml = urlset(`
    <url><loc>https://example.com/</loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq></url>
    <url><loc>https://example.com/docs/a</loc></url>`);
  t.deepEqual(parseSitemap(bytes(xml), sitemapUrl), {
    kind: 'urlset',
    urls: [{ loc: 'https://example.com/', lastmod: '2024-05-01' }, { loc: 'https://example.com/docs/a' }],
    truncated: 0,
  });
});

test('a sitemap index', (t) => {
  const xml = `<?xml version="1.0"?>
    <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://example.com/sitemap-pages.xml</loc><lastmod>2024-05-01T10:00:00+00:00</lastmod></sitemap>
      <sitemap><loc>https://example.com/sitemap-blog.xml.gz</loc></sitemap>
    </sitemapindex>`;
  t.deepEqual(parseSitemap(bytes(xml), sitemapUrl), {
    kind: 'index',
    urls: [
      { loc: 'https://example.com/sitemap-pages.xml', lastmod: '2024-05-01T10:00:00+00:00' },
      { loc: 'https://example.com/sitemap-blog.xml.gz' },
    ],
    truncated: 0,
  });
});

test('whitespace, entities and CDATA around and in loc', (t) => {
  const xml = urlset(`
    <url><loc>
        https://example.com/search?a=1&amp;b=2
    </loc><lastmod> 2024-01-02 </lastmod></url>
    <url><loc><![CDATA[https://example.com/x?c=3&d=4]]></loc></url>
    <url><loc>https://example.com/caf&#xE9;</loc></url>`);
  t.deepEqual(parseSitemap(bytes(xml), sitemapUrl).urls, [
    { loc: 'https://example.com/search?a=1&b=2', lastmod: '2024-01-02' },
    { loc: 'https://example.com/x?c=3&d=4' },
    { loc: 'https://example.com/café' },
  ]);
});

test('namespace prefixes and tag case are tolerated', (t) => {
  const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sm:url><sm:loc>https://example.com/a</sm:loc></sm:url>
      <URL><LOC>https://example.com/b</LOC></URL>
    </sm:urlset>`;
  t.deepEqual(parseSitemap(bytes(xml), sitemapUrl).urls, [{ loc: 'https://example.com/a' }, { loc: 'https://example.com/b' }]);
});

test("extensions' own locations never replace the page's", (t) => {
  const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
      xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
      <url>
        <image:image><image:loc>https://cdn.example.com/a.png</image:loc></image:image>
        <loc>https://example.com/a</loc>
        <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a"/>
        <image:image><image:loc>https://cdn.example.com/b.png</image:loc></image:image>
      </url>
    </urlset>`;
  t.deepEqual(parseSitemap(bytes(xml), sitemapUrl).urls, [{ loc: 'https://example.com/a' }]);
});

test('only absolute http(s) locations are kept', (t) => {
  const xml = urlset(`
    <url><loc>/relative</loc></url>
    <url><loc>ftp://example.com/file</loc></url>
    <url><loc>javascript:alert(1)</loc></url>
    <url><loc></loc></url>
    <url/>
    <url><lastmod>2024-01-01</lastmod></url>
    <url><loc>http://example.com/ok</loc></url>`);
  t.deepEqual(parseSitemap(bytes(xml), sitemapUrl), { kind: 'urlset', urls: [{ loc: 'http://example.com/ok' }], truncated: 0 });
});

test('an empty urlset has no entries', (t) => {
  t.deepEqual(parseSitemap(bytes(urlset('')), sitemapUrl), { kind: 'urlset', urls: [], truncated: 0 });
  t.deepEqual(parseSitemap(bytes('<urlset/>'), sitemapUrl), { kind: 'urlset', urls: [], truncated: 0 });
});

test('a byte-order mark and leading blank lines are tolerated', (t) => {
  const xml = `\uFEFF\n\n${urlset('<url><loc>https://example.com/a</loc></url>')}`;
  t.deepEqual(parseSitemap(bytes(xml), sitemapUrl).urls, [{ loc: 'https://example.com/a' }]);
});

test('gzipped, whatever the name says', (t) => {
  const xml = urlset('<url><loc>https://example.com/a</loc></url>');
  const expected = { kind: 'urlset', urls: [{ loc: 'https://example.com/a' }], truncated: 0 };
  t.deepEqual(parseSitemap(gzipSync(xml), 'https://example.com/sitemap.xml.gz'), expected);
  t.deepEqual(parseSitemap(gzipSync(xml), 'https://example.com/sitemap.xml'), expected);
  t.deepEqual(parseSitemap(gzipSync('https://example.com/a\n'), 'https://example.com/sitemap.txt.gz').urls, [
    { loc: 'https://example.com/a' },
  ]);
});

test('not gzipped although named .gz', (t) => {
  const xml = urlset('<url><loc>https://example.com/a</loc></url>');
  t.is(parseSitemap(bytes(xml), 'https://example.com/sitemap.xml.gz').urls.length, 1);
});

test('a gzip bomb is refused without inflating it', (t) => {
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
  t.true(bomb.length < 100 * 1024);
  const error = t.throws(() => parseSitemap(bomb, 'https://example.com/bomb.xml.gz', { maxBytes: 1024 * 1024 }), {
    instanceOf: SitemapError,
  });
  t.is(error?.message, 'Sitemap https://example.com/bomb.xml.gz inflates to more than 1048576 bytes');
});

test('a gzip bomb past the default 50 MiB is refused', (t) => {
  const bomb = gzipSync(Buffer.alloc(51 * 1024 * 1024, 0x20));
  t.throws(() => parseSitemap(bomb, sitemapUrl), { instanceOf: SitemapError, message: /inflates to more than 52428800 bytes/ });
});

test('plain bytes past maxBytes are refused', (t) => {
  const xml = urlset('<url><loc>https://example.com/a</loc></url>'.repeat(100));
  t.throws(() => parseSitemap(bytes(xml), sitemapUrl, { maxBytes: 1000 }), {
    instanceOf: SitemapError,
    message: `Sitemap ${sitemapUrl} is larger than 1000 bytes`,
  });
});

test('broken gzip is refused by name', (t) => {
  const broken = gzipSync(urlset('<url><loc>https://example.com/a</loc></url>')).subarray(0, 20);
  t.throws(() => parseSitemap(broken, sitemapUrl), {
    instanceOf: SitemapError,
    message: /^Sitemap https:\/\/example\.com\/sitemap\.xml starts as gzip but does not gunzip/,
  });
});

test('past maxUrls the rest is ignored and counted', (t) => {
  const entries = Array.from({ length: 25 }, (_, i) => `<url><loc>https://example.com/p${i}</loc></url>`).join('');
  const parsed = parseSitemap(bytes(urlset(`${entries}<url><loc>/not-counted</loc></url>`)), sitemapUrl, { maxUrls: 10 });
  t.is(parsed.urls.length, 10);
  t.is(parsed.urls[9]?.loc, 'https://example.com/p9');
  t.is(parsed.truncated, 15);
});

test('the protocol limit of 50,000 applies by default', (t) => {
  const lines = Array.from({ length: 50_003 }, (_, i) => `https://example.com/p${i}`).join('\n');
  const parsed = parseSitemap(bytes(lines), 'https://example.com/sitemap.txt');
  t.is(parsed.urls.length, 50_000);
  t.is(parsed.truncated, 3);
});

test('a plain-text sitemap: one URL per line', (t) => {
  const text = 'https://example.com/a\r\n\r\n  https://example.com/b  \nftp://example.com/skipped\nhttp://example.com/c';
  t.deepEqual(parseSitemap(bytes(text), 'https://example.com/sitemap.txt'), {
    kind: 'urlset',
    urls: [{ loc: 'https://example.com/a' }, { loc: 'https://example.com/b' }, { loc: 'http://example.com/c' }],
    truncated: 0,
  });
});

test('an HTML page is refused by name', (t) => {
  for (const html of [
    '<!DOCTYPE html><html><head><title>Not found</title></head><body><a href="/a">a</a></body></html>',
    '\n  <html lang="en"><body>Sitemap moved</body></html>',
    '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
  ]) {
    t.throws(() => parseSitemap(bytes(html), sitemapUrl), {
      instanceOf: SitemapError,
      message: `Sitemap ${sitemapUrl} is an HTML page, not a <urlset> or <sitemapindex>`,
    });
  }
});

test('other XML is refused by name', (t) => {
  t.throws(() => parseSitemap(bytes('<?xml version="1.0"?><rss version="2.0"><channel/></rss>'), sitemapUrl), {
    instanceOf: SitemapError,
    message: `Sitemap ${sitemapUrl} is XML with a <rss> root, not a <urlset> or <sitemapindex>`,
  });
  t.throws(() => parseSitemap(bytes('<?xml version="1.0"?><!-- nothing --> '), sitemapUrl), {
    instanceOf: SitemapError,
    message: `Sitemap ${sitemapUrl} is XML without elements, not a <urlset> or <sitemapindex>`,
  });
});

test('garbage is refused by name', (t) => {
  t.throws(() => parseSitemap(bytes('Service temporarily unavailable'), sitemapUrl), {
    instanceOf: SitemapError,
    message: `Sitemap ${sitemapUrl} is neither XML nor a list of URLs (line 1)`,
  });
  t.throws(() => parseSitemap(bytes('https://example.com/a\n{"error": true}'), sitemapUrl), {
    instanceOf: SitemapError,
    message: `Sitemap ${sitemapUrl} is neither XML nor a list of URLs (line 2)`,
  });
  t.throws(() => parseSitemap(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), sitemapUrl), {
    instanceOf: SitemapError,
    message: `Sitemap ${sitemapUrl} is binary, not a sitemap`,
  });
});

test('an empty file is refused by name', (t) => {
  for (const body of [new Uint8Array(), bytes('  \n\t\n')]) {
    t.throws(() => parseSitemap(body, sitemapUrl), { instanceOf: SitemapError, message: `Sitemap ${sitemapUrl} is empty` });
  }
});
