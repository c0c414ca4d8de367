import test from 'ava';
import { makePdf } from '#testing/documents.js';
import { DocumentError } from './errors.js';
import { extractDocument } from './extract.js';
import { defaultDocumentLimits } from './limits.js';

/*
 * PDFs as pdfkit writes them: real files, read through `extractDocument` as an upload or a crawled
 * link would be. A PDF becomes one section per page with text, headed by the bookmark covering it.
 */

const installation =
  'Place the pump on a level, solid surface where it can be reached for service. Keep at least 30 cm free on each ' +
  'side so that air can circulate around the motor, and never install it in a room where water may freeze.';

const manual = () =>
  makePdf(
    (doc) => {
      doc.fontSize(20).text('Installation');
      doc.fontSize(12).text(installation);
      doc.moveDown();
      doc.text('Connect the pump to the mains only after it has been filled with water.');
      doc.outline.addItem('Installation');
      doc.addPage().text('Check the filter every month and clean it under running water.');
      const maintenance = doc.outline.addItem('Maintenance');
      doc.addPage().text('Replace the seals every two years, or sooner when the pump drips.');
      doc.addPage().text('Seals are sold in sets of three.');
      maintenance.addItem('Spare parts');
    },
    { info: { Title: 'P-200 pump manual' }, lang: 'en-GB' },
  );

test('a manual: a section per page, headed by the bookmark that covers it; its paragraphs as lines', async (t) => {
  const document = await extractDocument(await manual(), { name: 'manual.pdf' });

  t.is(document.kind, 'pdf');
  t.is(document.title, 'P-200 pump manual');
  t.is(document.language, 'en-gb');
  t.is(document.pages, 4);
  t.deepEqual(document.sections, [
    {
      page: 1,
      heading: 'Installation',
      text: ['Installation', installation, 'Connect the pump to the mains only after it has been filled with water.'].join('\n'),
    },
    { page: 2, heading: 'Maintenance', text: 'Check the filter every month and clean it under running water.' },
    { page: 3, heading: 'Maintenance', text: 'Replace the seals every two years, or sooner when the pump drips.' },
    { page: 4, heading: 'Spare parts', text: 'Seals are sold in sets of three.' },
  ]);
});

test('a PDF without bookmarks or title: headings and title null; a blank page has no section', async (t) => {
  const bytes = await makePdf((doc) => {
    doc.text('First page.');
    doc.addPage();
    doc.addPage().text('Third page.');
  });
  const document = await extractDocument(bytes);
  t.is(document.title, null);
  t.is(document.language, undefined);
  t.is(document.pages, 3);
  t.deepEqual(document.sections, [
    { page: 1, heading: null, text: 'First page.' },
    { page: 3, heading: null, text: 'Third page.' },
  ]);
});

test('without an info Title, the first bookmark is the title', async (t) => {
  const bytes = await makePdf((doc) => {
    doc.text('Welcome to the pump.');
    doc.outline.addItem('Getting started');
  });
  const document = await extractDocument(bytes);
  t.is(document.title, 'Getting started');
  t.deepEqual(document.sections, [{ page: 1, heading: 'Getting started', text: 'Welcome to the pump.' }]);
});

test('words placed one by one make one line; list items and text with markup characters stay as they are', async (t) => {
  const bytes = await makePdf((doc) => {
    doc.fontSize(12);
    let x = 72;
    for (const word of ['Words', 'written', 'one', 'at', 'a', 'time.']) {
      doc.text(word, x, 100, { lineBreak: false });
      x += doc.widthOfString(word) + doc.widthOfString(' ');
    }
    doc.text('• Drain the pump', 72, 140);
    doc.text('• Close the valves', 72, 154);
    doc.text('Set <timeout> to 5 & restart', 72, 200);
  });
  const [section] = (await extractDocument(bytes)).sections;
  t.is(section!.text, 'Words written one at a time.\n• Drain the pump\n• Close the valves\nSet <timeout> to 5 & restart');
});

test('a password-protected PDF is encrypted', async (t) => {
  const bytes = await makePdf((doc) => doc.text('Salaries 2024'), { userPassword: 'secret' });
  const error = await t.throwsAsync(extractDocument(bytes, { name: 'salaries.pdf' }), { instanceOf: DocumentError });
  t.is(error.code, 'encrypted');
  t.is(error.message, 'This PDF is protected by a password; remove the password and upload it again.');
});

test('a PDF with drawings and no text is a scanned PDF to run through OCR', async (t) => {
  const bytes = await makePdf((doc) => {
    doc.rect(72, 72, 300, 400).fill('#777777');
    doc.addPage().circle(200, 200, 100).stroke();
  });
  const error = await t.throwsAsync(extractDocument(bytes), { instanceOf: DocumentError });
  t.is(error.code, 'no_text');
  t.is(error.message, 'This looks like a scanned PDF: it has 2 pages but no text layer; run it through OCR first.');
});

test('a truncated or garbled PDF is corrupt', async (t) => {
  const bytes = await manual();
  for (const damaged of [bytes.subarray(0, 1200), Buffer.concat([bytes.subarray(0, 16), Buffer.alloc(2000, 0x2a)])]) {
    const error = await t.throwsAsync(extractDocument(damaged, { name: 'manual.pdf' }), { instanceOf: DocumentError });
    t.is(error.code, 'corrupt');
    t.regex(error.message, /^This PDF cannot be read: it is damaged or not really a PDF \(.+\)\.$/);
  }
});

test('a PDF over the page limit is refused before its pages are read', async (t) => {
  const bytes = await makePdf((doc) => doc.text('One').addPage().text('Two').addPage().text('Three'));
  const limits = { ...defaultDocumentLimits, maxPages: 2 };
  const error = await t.throwsAsync(extractDocument(bytes, { limits }), { instanceOf: DocumentError });
  t.is(error.code, 'too_many_pages');
  t.is(error.message, 'This PDF has 3 pages, more than the limit of 2 pages (maxPages).');
  t.deepEqual(error.limit, { name: 'maxPages', value: 2 });
});

test('a PDF with more text than the limit is refused', async (t) => {
  const limits = { ...defaultDocumentLimits, maxCharacters: 300 };
  const error = await t.throwsAsync(extractDocument(await manual(), { limits }), { instanceOf: DocumentError });
  t.is(error.code, 'too_much_text');
  t.is(
    error.message,
    'The document has more than 300 characters of text, the limit (maxCharacters); split it into smaller documents.',
  );
  t.deepEqual(error.limit, { name: 'maxCharacters', value: 300 });
});
