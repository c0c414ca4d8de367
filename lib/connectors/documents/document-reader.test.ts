import test from 'ava';
import { makePdf } from '#testing/documents.js';
import { createDocumentReader } from './document-reader.js';
import { DocumentError } from './errors.js';

/* The documents' thread: what `extractDocument` answers, read off the caller's event loop, within bounds. */

const pdfOf = (text: string) => makePdf((doc) => doc.fontSize(12).text(text));

test('a document is read on the thread, and the caller keeps its bytes', async (t) => {
  const reader = createDocumentReader();
  t.teardown(() => reader.close());
  const bytes = await pdfOf('Descale the kettle once a month with a cup of vinegar.');
  const document = await reader.read(bytes, { name: 'kettle.pdf' });
  t.like(document, { kind: 'pdf', pages: 1 });
  t.deepEqual(
    document.sections.map((section) => [section.page, section.text]),
    [[1, 'Descale the kettle once a month with a cup of vinegar.']],
  );
  t.is(bytes.byteLength > 0, true, 'the bytes given are not moved away from the caller');
});

test("a refusal comes back as the extractor's DocumentError, code, words and limit", async (t) => {
  const reader = createDocumentReader();
  t.teardown(() => reader.close());
  const error = await t.throwsAsync(reader.read(new TextEncoder().encode('plain words'), { name: 'report.pdf' }), {
    instanceOf: DocumentError,
  });
  t.like(error, { code: 'type_mismatch', message: 'report.pdf is not a PDF: its bytes are plain text.' });
  const tooBig = await t.throwsAsync(
    reader.read(await pdfOf('x'), { limits: { maxBytes: 10, maxPages: 10, maxCharacters: 100 } }),
    { instanceOf: DocumentError },
  );
  t.like(tooBig, { code: 'too_large', limit: { name: 'maxBytes', value: 10 } });
});

test('a reading that outlasts its time is stopped and the file refused; the next one is read', async (t) => {
  const slow = createDocumentReader({ timeoutMs: 1 });
  t.teardown(() => slow.close());
  const error = await t.throwsAsync(slow.read(await pdfOf('Too slow for one millisecond.')), { instanceOf: DocumentError });
  t.like(error, { code: 'too_complex', message: 'Reading the file took longer than 0.001 s, the limit; it was stopped.' });

  const reader = createDocumentReader();
  t.teardown(() => reader.close());
  t.is((await reader.read(await pdfOf('Read in time.'))).sections[0]!.text, 'Read in time.');
});

test("a crawled page is read on the thread: its main content's sections, its links and the page's directives", async (t) => {
  const reader = createDocumentReader();
  t.teardown(() => reader.close());
  const page = await reader.readPage(
    '<html lang="en"><head><title>Kettles</title><meta name="robots" content="nofollow"></head><body><nav><a href="/shop">Shop</a></nav>' +
      '<main><h1>Kettles</h1><h2 id="descaling">Descaling</h2><p>Descale the kettle once a month with a cup of vinegar and water.</p></main></body></html>',
    'https://help.example/kettles.html',
  );
  t.like(page, { title: 'Kettles', language: 'en', robots: { nofollow: true, noindex: false } });
  t.deepEqual(page.links, ['https://help.example/shop']);
  t.deepEqual(
    page.sections.map((section) => [section.heading, section.anchor]),
    [['Descaling', 'descaling']],
  );
});
