import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import test from 'ava';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { DocumentError } from './errors.js';
import { extractDocument } from './extract.js';

/*
 * Word documents as the `docx` package writes them, and ZIP archives shaped like one that are bombs:
 * a few hundred KB that say, or do not say, they inflate to hundreds of MB.
 */

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

async function serviceGuide(): Promise<Buffer> {
  const document = new Document({
    styles: { default: { document: { run: { language: { value: 'de-DE' } } } } },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Heat pump service guide', heading: HeadingLevel.TITLE }),
          new Paragraph('Read this guide before you service the heat pump.'),
          new Paragraph({ text: 'Safety', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Switch off the power at the isolator and wait five minutes.'),
          new Paragraph({ text: 'Tools', heading: HeadingLevel.HEADING_2 }),
          new Paragraph('You need the following tools.'),
          new Table({
            rows: [
              new TableRow({ children: [cell('Tool'), cell('Size')] }),
              new TableRow({ children: [cell('Spanner'), cell('17 mm')] }),
              new TableRow({ children: [cell('Torque wrench'), cell('5–25 Nm')] }),
            ],
          }),
          new Paragraph({ text: 'Refrigerant', heading: HeadingLevel.HEADING_3 }),
          new Paragraph('Only certified engineers may open the refrigerant circuit.'),
          new Paragraph({ text: 'Yearly checks', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Check the condensate drain and clean the evaporator fins.'),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}

test('a Word document: the Title is its title, its headings split it, its table cells come out as "a | b" rows', async (t) => {
  const document = await extractDocument(await serviceGuide(), { name: 'service-guide.docx' });

  t.is(document.kind, 'docx');
  t.is(document.title, 'Heat pump service guide');
  t.is(document.language, 'de-de');
  t.deepEqual(document.sections, [
    { heading: null, text: 'Read this guide before you service the heat pump.' },
    { heading: 'Safety', text: 'Switch off the power at the isolator and wait five minutes.' },
    {
      heading: 'Tools',
      text: [
        'You need the following tools.',
        'Tool | Size',
        'Spanner | 17 mm',
        'Torque wrench | 5–25 Nm',
        'Refrigerant',
        'Only certified engineers may open the refrigerant circuit.',
      ].join('\n'),
    },
    { heading: 'Yearly checks', text: 'Check the condensate drain and clean the evaporator fins.' },
  ]);
});

test('a truncated Word document is corrupt', async (t) => {
  const bytes = await serviceGuide();
  const error = await t.throwsAsync(extractDocument(bytes.subarray(0, bytes.length - 200), { name: 'guide.docx' }), {
    instanceOf: DocumentError,
  });
  t.is(error.code, 'corrupt');
  t.regex(error.message, /^This Word document cannot be read: /);
});

interface ZipEntry {
  name: string;
  /** Deflated. */
  data: Buffer;
  /** What the archive says the entry inflates to. */
  size: number;
}

/** A ZIP archive (local headers, central directory, end record) holding deflated entries, sizes as given. */
function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, data, size } of entries) {
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    directory.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...directory, end]);
}

const contentTypes = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);

const contentTypesEntry = { name: '[Content_Types].xml', data: deflateRawSync(contentTypes), size: contentTypes.length };

/** `mib` MiB of zeros, deflated as tightly as deflate can (about 1,000 to 1), a MiB at a time. */
function deflatedZeros(mib: number): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  return buffer(Readable.from(Array.from({ length: mib }, () => chunk)).pipe(createDeflateRaw({ level: 9 })));
}

/** A DOCX-shaped archive whose document.xml is `mib` MiB of zeros and says it inflates to `declared` bytes. */
async function bomb(mib: number, declared: number): Promise<Buffer> {
  return zip([contentTypesEntry, { name: 'word/document.xml', data: await deflatedZeros(mib), size: declared }]);
}

test('a zip bomb that declares hundreds of MB is refused before anything is inflated', async (t) => {
  const bytes = await bomb(300, 300 * 1024 * 1024);
  t.true(bytes.length < 400 * 1024);
  const error = await t.throwsAsync(extractDocument(bytes, { name: 'invoice.docx' }), { instanceOf: DocumentError });
  t.is(error.code, 'corrupt');
  t.is(
    error.message,
    'This Word document cannot be read: it would inflate to 300 MiB, more than the limit of 100 MiB (4 × maxBytes), as a zip bomb does.',
  );
  t.deepEqual(error.limit, { name: 'maxInflatedBytes', value: 100 * 1024 * 1024 });
});

test('a part that inflates over 100 times its compressed size is refused, even under the size limit', async (t) => {
  const error = await t.throwsAsync(extractDocument(await bomb(50, 50 * 1024 * 1024)), { instanceOf: DocumentError });
  t.is(error.code, 'corrupt');
  t.regex(
    error.message,
    /^This Word document cannot be read: its part word\/document\.xml would inflate [\d,]+ times its compressed size \(the limit is 100 times\), as a zip bomb does\.$/,
  );
  t.deepEqual(error.limit, { name: 'maxInflationRatio', value: 100 });
});

test('a part that lies about its size is stopped at the size it declares', async (t) => {
  const error = await t.throwsAsync(extractDocument(await bomb(300, 1024)), { instanceOf: DocumentError });
  t.is(error.code, 'corrupt');
  t.is(
    error.message,
    'This Word document cannot be read: its part word/document.xml holds more than the 1 KiB it declares, as a zip bomb does.',
  );
});

test('an archive that says it is a Word document but holds no document is corrupt', async (t) => {
  const error = await t.throwsAsync(extractDocument(zip([contentTypesEntry]), { name: 'empty.docx' }), {
    instanceOf: DocumentError,
  });
  t.is(error.code, 'corrupt');
  t.regex(error.message, /^This Word document cannot be read: it is not a Word document mammoth can read \(.+\)\.$/);
});
