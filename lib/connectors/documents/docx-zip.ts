import { Writable, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { DocumentError, type DocumentLimitHit } from './errors.js';
import { byteSize, count, type DocumentLimits } from './limits.js';

/*
 * A Word document is a ZIP archive, and a ZIP archive can be a bomb: a few hundred KB that inflate to
 * gigabytes. mammoth (through JSZip) inflates what it reads without a bound, so the archive is checked
 * here first, from its central directory (read by yauzl), before anything is inflated: what its parts say
 * they inflate to, in total and each against its compressed size. A part can lie about its size, so each
 * is then inflated once by yauzl, which stops a part holding more than it declares (`validateEntrySizes`).
 */

// A DOCX's XML inflates 3 to 10 times: past this many times the upload limit, it is a bomb or holds far
// more text than maxCharacters lets through.
const INFLATION_ALLOWANCE = 4;
// Each part may inflate to at most this many times its compressed size…
const MAX_RATIO = 100;
// …once it is big enough to matter: a small part of repetitive XML may compress better, and harms no one.
const RATIO_CHECKED_FROM = 1024 * 1024;

/** A checked archive: each part can be read, never inflating past what it declares. */
export interface DocxZip {
  read(name: string): Promise<Buffer | undefined>;
}

/** Checks a DOCX's archive as above: corrupt when it is damaged, encrypted, or a bomb. */
export async function openDocxZip(bytes: Uint8Array, limits: DocumentLimits): Promise<DocxZip> {
  const { zip, parts } = await readDirectory(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const maxInflatedBytes = INFLATION_ALLOWANCE * limits.maxBytes;
  const total = parts.reduce((sum, part) => sum + part.uncompressedSize, 0);
  if (total > maxInflatedBytes) {
    throw corrupt(
      `it would inflate to ${byteSize(total)}, more than the limit of ${byteSize(maxInflatedBytes)} (${INFLATION_ALLOWANCE} × maxBytes), as a zip bomb does`,
      { name: 'maxInflatedBytes', value: maxInflatedBytes },
    );
  }
  const inflating = parts.find(
    (part) => part.uncompressedSize >= RATIO_CHECKED_FROM && part.uncompressedSize > MAX_RATIO * part.compressedSize,
  );
  if (inflating) {
    const ratio = Math.round(inflating.uncompressedSize / Math.max(inflating.compressedSize, 1));
    throw corrupt(
      `its part ${inflating.fileName} would inflate ${count(ratio)} times its compressed size (the limit is ${MAX_RATIO} times), as a zip bomb does`,
      { name: 'maxInflationRatio', value: MAX_RATIO },
    );
  }
  for (const part of parts) await inflate(zip, part, drain);
  return {
    read: async (name) => {
      const part = parts.find((candidate) => candidate.fileName === name);
      return part && inflate(zip, part, buffer);
    },
  };
}

/** The archive and the parts its central directory lists, as yauzl reads and checks them. */
async function readDirectory(archive: Buffer): Promise<{ zip: ZipFile; parts: Entry[] }> {
  const parts: Entry[] = [];
  try {
    const zip = await yauzl.fromBufferPromise(archive, { validateEntrySizes: true });
    for await (const part of zip.eachEntry()) {
      if (part.isEncrypted()) throw corrupt(`its part ${part.fileName} is encrypted`);
      parts.push(part);
    }
    return { zip, parts };
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw corrupt(`its ZIP directory is damaged (${messageOf(error)})`, undefined, error);
  }
}

/** A part's bytes, inflated by yauzl with its declared size as the bound, handed to `consume`. */
async function inflate<T>(zip: ZipFile, part: Entry, consume: (stream: Readable) => Promise<T>): Promise<T> {
  try {
    return await consume(await zip.openReadStreamPromise(part));
  } catch (error) {
    // yauzl's `validateEntrySizes` error: "too many bytes in the stream. expected …".
    if (messageOf(error).startsWith('too many bytes')) {
      throw corrupt(
        `its part ${part.fileName} holds more than the ${byteSize(part.uncompressedSize)} it declares, as a zip bomb does`,
      );
    }
    throw corrupt(`its part ${part.fileName} is damaged (${messageOf(error)})`, undefined, error);
  }
}

/** Inflates a part to check it, keeping none of it. */
function drain(stream: Readable): Promise<void> {
  return pipeline(stream, new Writable({ write: (_chunk, _encoding, done) => done() }));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function corrupt(reason: string, limit?: DocumentLimitHit, cause?: unknown): DocumentError {
  return new DocumentError(
    'corrupt',
    `This Word document cannot be read: ${reason}.`,
    limit,
    cause === undefined ? undefined : { cause },
  );
}
