import test from 'ava';
import { makePdf } from '#testing/documents.js';
import { detectKind } from './detect.js';
import { DocumentError } from './errors.js';

/*
 * The kind comes from the bytes. The name and content type only choose Markdown over plain text, and
 * a name or type that claims a PDF, a Word document or HTML the bytes are not is a mismatch.
 */

const text = (value: string) => new TextEncoder().encode(value);
// A 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const pdf = () => makePdf((doc) => doc.text('A PDF.'));

async function refusal(bytes: Uint8Array, naming: { name?: string; contentType?: string } = {}) {
  const error = await detectKind(bytes, naming).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DocumentError)) throw new Error(`expected a DocumentError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

test('a PDF is a PDF whatever its name says, unless the name claims another kind', async (t) => {
  const bytes = await pdf();
  t.is(await detectKind(bytes, { name: 'scan.PDF', contentType: 'application/octet-stream' }), 'pdf');
  t.is(await detectKind(bytes, { name: 'notes.txt' }), 'pdf');
  t.deepEqual(await refusal(bytes, { name: 'letter.docx' }), {
    code: 'type_mismatch',
    message: 'letter.docx is not a Word document: its bytes are a PDF.',
  });
});

test('text named or declared as a PDF is a mismatch', async (t) => {
  t.deepEqual(await refusal(text('Quarterly report\nRevenue grew.'), { name: 'report.pdf' }), {
    code: 'type_mismatch',
    message: 'report.pdf is not a PDF: its bytes are plain text.',
  });
  t.deepEqual(await refusal(text('hello'), { contentType: 'Application/PDF; name="x"' }), {
    code: 'type_mismatch',
    message: 'The file declared as application/pdf is not a PDF: its bytes are plain text.',
  });
  t.deepEqual(await refusal(png, { name: 'page.html' }), {
    code: 'type_mismatch',
    message: 'page.html is not HTML: its bytes are a PNG image.',
  });
});

test('an image is unsupported, saying what it is', async (t) => {
  t.deepEqual(await refusal(png, { name: 'photo.png' }), {
    code: 'unsupported_type',
    message:
      'photo.png is a PNG image, which cannot be read: upload a PDF, a Word document (.docx), HTML, Markdown or plain text.',
  });
  t.deepEqual(await refusal(Uint8Array.from([0x00, 0x01, 0x02, 0x9f, 0x00, 0x7f])), {
    code: 'unsupported_type',
    message:
      'The file is binary data of no kind we recognise, which cannot be read: upload a PDF, a Word document (.docx), HTML, Markdown or plain text.',
  });
});

test('text that is not UTF-8 is refused, Latin-1 and UTF-16 alike', async (t) => {
  const latin1 = Buffer.from('Caf\u00e9 cr\u00e8me, 2,50 \u00a3', 'latin1');
  const expected = {
    code: 'not_utf8',
    message: 'menu.txt is not valid UTF-8 text (it may be Latin-1, Windows-1252 or UTF-16); save it as UTF-8 and try again.',
  };
  t.deepEqual(await refusal(latin1, { name: 'menu.txt' }), expected);
  t.deepEqual(await refusal(Buffer.from('\ufeffCaf\u00e9', 'utf16le'), { name: 'menu.txt' }), expected);
});

test('UTF-8 text is HTML when it starts as a page does, after a BOM, whitespace, comments or an XML declaration', async (t) => {
  for (const page of [
    '<!DOCTYPE html><title>x</title>',
    '\ufeff  \n<html lang="en"><body>x</body></html>',
    '<!-- generated --><!doctype HTML>',
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x"><html xmlns="http://www.w3.org/1999/xhtml">',
    '<head><title>x</title></head>',
    '<BODY>x</BODY>',
  ]) {
    t.is(await detectKind(text(page)), 'html', page);
  }
  for (const notPage of ['<p>A fragment.</p>', 'Use <html> to start a page.', '<htmlx>', '']) {
    t.is(await detectKind(text(notPage)), 'text', notPage);
  }
});

test('the name or content type chooses Markdown for text; nothing else', async (t) => {
  const markdown = text('# Returns\n\nWithin 30 days.');
  t.is(await detectKind(markdown, { name: 'returns.md' }), 'markdown');
  t.is(await detectKind(markdown, { name: 'RETURNS.Markdown' }), 'markdown');
  t.is(await detectKind(markdown, { contentType: 'text/markdown; charset=utf-8' }), 'markdown');
  t.is(await detectKind(markdown, { name: 'returns.txt' }), 'text');
  t.is(await detectKind(markdown), 'text');
  t.is(await detectKind(text('<!doctype html><p>x</p>'), { name: 'page.md' }), 'html');
});

test('XML is read only when it is an XHTML page', async (t) => {
  t.deepEqual(await refusal(text('<?xml version="1.0"?>\n<invoice><total>12</total></invoice>'), { name: 'invoice.xml' }), {
    code: 'unsupported_type',
    message:
      'invoice.xml is an XML file, which cannot be read: upload a PDF, a Word document (.docx), HTML, Markdown or plain text.',
  });
});
