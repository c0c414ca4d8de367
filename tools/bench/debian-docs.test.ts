import test from 'ava';
import { ingestItem } from '#api/schemas/ingest.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { chapterFiles, chapterSections, debianManuals, manualItems } from './debian-docs.js';

// A chapter as DocBook writes the manuals' pages: navigation around it, a table of contents, an
// introduction, sections (one with a subsection, one empty), footnotes; `<a id="…"/>` as in the Reference.
const chapter = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter 3. Packages</title></head><body>
<div class="navheader"><table summary="Navigation header"><tr><th>Chapter 3. Packages</th></tr>
  <tr><td><a accesskey="p" href="ch02.en.html">Prev</a></td></tr></table><hr/></div>
<div class="chapter">
  <div class="titlepage"><div><div><h1 class="title"><a id="_packages"/>Chapter 3. Packages</h1></div></div></div>
  <div class="toc"><p><strong>Table of Contents</strong></p><dl class="toc">
    <dt><span class="section"><a href="ch03.en.html#_installing">3.1. Installing</a></span></dt></dl></div>
  <p>Packages hold the software.</p>
  <div class="section"><div class="titlepage"><div><div><h2 class="title"><a id="_installing"/>3.1.
    Installing</h2></div></div></div>
    <p>Use apt.<sup>[<a href="#ftn.1">1</a>]</sup></p>
    <div class="section"><div class="titlepage"><div><div><h3 class="title"><a id="_quickly"/>3.1.1. Quickly</h3></div></div></div>
      <p>Use apt -y.</p></div>
  </div>
  <div class="section"><div class="titlepage"><div><div><h2 class="title"><a id="_later"/>3.2. Later</h2></div></div></div>
  </div>
  <div class="section"><div class="titlepage"><div><div><h2 class="title"><a id="_removing"></a>3.3. Removing “old” ones</h2></div></div></div>
    <p>Use remove &amp; purge.</p></div>
  <div class="footnotes"><div class="footnote"><p>[1] A footnote.</p></div></div>
</div>
<div class="navfooter"><hr/><a accesskey="n" href="ch04.en.html">Next</a></div>
</body></html>`;

test('a chapter is split into its introduction and its first-level sections, titles carrying the chapter', (t) => {
  const sections = chapterSections(chapter);
  t.deepEqual(
    sections.map(({ anchor, title }) => ({ anchor, title })),
    [
      { anchor: '_packages', title: 'Chapter 3. Packages' },
      { anchor: '_installing', title: 'Chapter 3. Packages — 3.1. Installing' },
      { anchor: '_removing', title: 'Chapter 3. Packages — 3.3. Removing “old” ones' },
    ],
    'the empty section is left out, the subsection stays inside its section',
  );
  const [intro, installing, removing] = sections.map((section) => section.html);
  t.is(intro, '<p>Packages hold the software.</p>');
  t.regex(installing!, /Use apt\..*3\.1\.1\. Quickly.*Use apt -y\./s);
  t.notRegex(installing!, /<h2/, 'the heading is the title, not the content');
  t.is(removing, '<p>Use remove &amp; purge.</p>');
});

test('navigation, the table of contents and the footnotes are in no section', (t) => {
  const html = chapterSections(chapter)
    .map((section) => section.html)
    .join('\n');
  for (const dropped of ['Prev', 'Next', 'Table of Contents', 'A footnote'])
    t.false(html.includes(dropped), `${dropped} is left out`);
});

test('a book gives its parts in its order, each once; their sections become items the ingestion API accepts', (t) => {
  const index = `<html><body><div class="book"><div class="toc"><dl class="toc">
    <dt><span class="preface"><a href="pr01.en.html">Preface</a></span></dt>
    <dd><dl><dt><span class="section"><a href="pr01.en.html#_disclaimer">1. Disclaimer</a></span></dt></dl></dd>
    <dt><span class="chapter"><a href="ch03.en.html">3. Packages</a></span></dt>
    <dt><span class="appendix"><a href="apa.en.html">A. Appendix</a></span></dt>
  </dl></div></div></body></html>`;
  t.deepEqual(chapterFiles(index), ['pr01.en.html', 'ch03.en.html', 'apa.en.html']);

  const [faq] = debianManuals;
  const items = manualItems(faq!, [{ file: 'ch03.en.html', html: chapter }]);
  t.deepEqual(
    items.map((item) => [item.externalId, item.data.url]),
    [
      ['debian-faq-_packages', 'https://www.debian.org/doc/manuals/debian-faq/ch03.en.html#_packages'],
      ['debian-faq-_installing', 'https://www.debian.org/doc/manuals/debian-faq/ch03.en.html#_installing'],
      ['debian-faq-_removing', 'https://www.debian.org/doc/manuals/debian-faq/ch03.en.html#_removing'],
    ],
  );
  for (const item of items) assertMatchesSchema(t, ingestItem, item);
  t.throws(
    () =>
      manualItems(faq!, [
        { file: 'ch03.en.html', html: chapter },
        { file: 'again.en.html', html: chapter },
      ]),
    {
      message: /two sections are debian-faq-_packages/,
    },
  );
});
