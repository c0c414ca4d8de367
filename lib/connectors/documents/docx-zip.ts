import { inflateRawSync } from 'node:zlib';
import { DocumentError, type DocumentLimitHit } from './errors.js';
import { byteSize, count, type DocumentLimits } from './limits.js';

/*
 * A Word document is a ZIP archive, and a ZIP archive can be a bomb: a few hundred KB that inflate to
 * gigabytes. mammoth (through JSZip) inflates what it reads without a bound, so the archive is checked
 * here first, from its central directory, before anything is inflated: what its parts say they inflate
 * to, in total and each against its compressed size. A part can lie about its size, so each is then
 * inflated once with its declared size as the bound: a part holding more than it says stops there.
 */

// A DOCX's XML inflates 3 to 10 times: past this many times the upload limit, it is a bomb or holds far
// more text than maxCharacters lets through.
const INFLATION_ALLOWANCE = 4;
// Each part may inflate to at most this many times its compressed size…
const MAX_RATIO = 100;
// …once it is big enough to matter: a small part of repetitive XML may compress better, and harms no one.
const RATIO_CHECKED_FROM = 1024 * 1024;

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;

interface ZipPart {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Where the part's compressed bytes start in the archive. */
  dataOffset: number;
}

/** A checked archive: each part can be read, never inflating past what it declares. */
export interface DocxZip {
  read(name: string): Buffer | undefined;
}

/** Checks a DOCX's archive as above: corrupt when it is damaged, encrypted, or a bomb. */
export function openDocxZip(bytes: Uint8Array, limits: DocumentLimits): DocxZip {
  const archive = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts = guarded(() => readDirectory(archive));
  const maxInflatedBytes = INFLATION_ALLOWANCE * limits.maxBytes;
  const total = parts.reduce((sum, part) => sum + part.size, 0);
  if (total > maxInflatedBytes) {
    throw corrupt(
      `it would inflate to ${byteSize(total)}, more than the limit of ${byteSize(maxInflatedBytes)} (${INFLATION_ALLOWANCE} × maxBytes), as a zip bomb does`,
      { name: 'maxInflatedBytes', value: maxInflatedBytes },
    );
  }
  const inflating = parts.find((part) => part.size >= RATIO_CHECKED_FROM && part.size > MAX_RATIO * part.compressedSize);
  if (inflating) {
    const ratio = Math.round(inflating.size / Math.max(inflating.compressedSize, 1));
    throw corrupt(
      `its part ${inflating.name} would inflate ${count(ratio)} times its compressed size (the limit is ${MAX_RATIO} times), as a zip bomb does`,
      { name: 'maxInflationRatio', value: MAX_RATIO },
    );
  }
  for (const part of parts) inflate(archive, part);
  return {
    read: (name) => {
      const part = parts.find((candidate) => candidate.name === name);
      return part && inflate(archive, part);
    },
  };
}

/** A part's bytes, inflated with its declared size as the bound. */
function inflate(archive: Buffer, part: ZipPart): Buffer {
  const data = archive.subarray(part.dataOffset, part.dataOffset + part.compressedSize);
  if (part.method === STORED) {
    if (part.compressedSize !== part.size) throw corrupt(`its part ${part.name} is damaged`);
    return data;
  }
  if (part.method !== DEFLATED) {
    throw corrupt(`its part ${part.name} is compressed with a method Word does not use (${part.method})`);
  }
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(data, { maxOutputLength: Math.max(part.size, 1) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw corrupt(`its part ${part.name} holds more than the ${byteSize(part.size)} it declares, as a zip bomb does`);
    }
    throw corrupt(`its part ${part.name} is damaged`, undefined, error);
  }
  if (inflated.length !== part.size) throw corrupt(`its part ${part.name} is damaged`);
  return inflated;
}

/** The parts the central directory lists (ZIP64's larger fields included), each checked to lie inside the archive. */
function readDirectory(archive: Buffer): ZipPart[] {
  const { entries, offset } = endOfDirectory(archive);
  const parts: ZipPart[] = [];
  for (let at = offset, i = 0; i < entries; i++) {
    if (archive.readUInt32LE(at) !== DIRECTORY_ENTRY) throw corrupt('its ZIP directory is damaged');
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const name = archive.toString('utf8', at + 46, at + 46 + nameLength);
    if (archive.readUInt16LE(at + 8) & 1) throw corrupt(`its part ${name} is encrypted`);
    const [size, compressedSize, localOffset] = withZip64Fields(
      [archive.readUInt32LE(at + 24), archive.readUInt32LE(at + 20), archive.readUInt32LE(at + 42)],
      archive.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength),
    );
    if (archive.readUInt32LE(localOffset) !== LOCAL_HEADER) throw corrupt('its ZIP directory is damaged');
    const dataOffset = localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    if (dataOffset + compressedSize > archive.length) throw corrupt(`its part ${name} is cut short`);
    parts.push({ name, method: archive.readUInt16LE(at + 10), compressedSize, size, dataOffset });
    at += 46 + nameLength + extraLength + archive.readUInt16LE(at + 32);
  }
  return parts;
}

/** The directory's entry count and offset, from the end record (searched from the end, behind any comment) or its ZIP64 form. */
function endOfDirectory(archive: Buffer): { entries: number; offset: number } {
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - 22 - 0xffff); at--) {
    if (archive.readUInt32LE(at) !== END_OF_DIRECTORY) continue;
    const [entries, offset] = [archive.readUInt16LE(at + 10), archive.readUInt32LE(at + 16)];
    if (entries !== 0xffff && offset !== 0xffffffff) return { entries, offset };
    const locator = at - 20;
    if (locator < 0 || archive.readUInt32LE(locator) !== ZIP64_END_LOCATOR) throw corrupt('its ZIP directory is damaged');
    const end = Number(archive.readBigUInt64LE(locator + 8));
    if (archive.readUInt32LE(end) !== ZIP64_END_OF_DIRECTORY) throw corrupt('its ZIP directory is damaged');
    return { entries: Number(archive.readBigUInt64LE(end + 32)), offset: Number(archive.readBigUInt64LE(end + 48)) };
  }
  throw corrupt('it has no ZIP directory');
}

/** ZIP64 moves a field that does not fit 32 bits (written as 0xffffffff) into an extra field, in this order: size, compressed size, offset. */
function withZip64Fields(fields: [number, number, number], extra: Buffer): [number, number, number] {
  if (!fields.includes(0xffffffff)) return fields;
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) {
    if (extra.readUInt16LE(at) !== ZIP64_EXTRA) continue;
    let next = at + 4;
    const widened = (field: number) => {
      if (field !== 0xffffffff) return field;
      next += 8;
      return Number(extra.readBigUInt64LE(next - 8));
    };
    return [widened(fields[0]), widened(fields[1]), widened(fields[2])];
  }
  throw corrupt('its ZIP directory is damaged');
}

/** Reading past the archive's end (a directory that points outside it) is damage, not a crash. */
function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RangeError) throw corrupt('its ZIP directory is damaged', undefined, error);
    throw error;
  }
}

export function corrupt(reason: string, limit?: DocumentLimitHit, cause?: unknown): DocumentError {
  return new DocumentError(
    'corrupt',
    `This Word document cannot be read: ${reason}.`,
    limit,
    cause === undefined ? undefined : { cause },
  );
}
