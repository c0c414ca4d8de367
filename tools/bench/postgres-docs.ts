/**
 * A real documentation site for the crawl benchmark: the PostgreSQL 15 manual's HTML (about 1,170
 * pages, DocBook's navigation, cross links and anchors), from Debian's package `postgresql-doc-15`,
 * fetched at bench time and never committed. It is fetched and unpacked as the Debian manuals are
 * (`debian-docs.ts`: `apt-get download`, `dpkg-deb -x`) into `.data/postgres-docs/`: nothing is
 * installed on the machine, and later runs reuse the folder.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackedDebianPackages } from './debian-docs.js';

const debianPackage = 'postgresql-doc-15';
const htmlDir = 'usr/share/doc/postgresql-doc-15/html';
const defaultCacheDir = fileURLToPath(new URL('../../.data/postgres-docs', import.meta.url));

/** The folder of the manual's HTML (fetched by the first caller): one file per page, `index.html` the table of contents. */
export async function unpackedPostgresDocs({ cacheDir = defaultCacheDir } = {}): Promise<string> {
  await unpackedDebianPackages([debianPackage], cacheDir);
  return join(cacheDir, 'root', htmlDir);
}

/** The package as fetched, for a benchmark to print: `postgresql-doc-15 15.20-0+deb12u1`. */
export async function postgresDocsPackage({ cacheDir = defaultCacheDir } = {}): Promise<string> {
  const [found] = await unpackedDebianPackages([debianPackage], cacheDir);
  return found ? `${found.name} ${found.version}` : debianPackage;
}

/** The manual's pages in `folder`, by name (its images and stylesheet left out). */
export function postgresDocsPages(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.html'))
    .sort();
}
