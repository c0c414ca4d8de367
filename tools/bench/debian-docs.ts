/**
 * A real documentation corpus for the ingestion benchmark: one item per section of the Debian FAQ and
 * the Debian Reference, built at bench time from Debian's packages `debian-faq` and
 * `debian-reference-en`, never committed. `apt-get download` fetches the packages into
 * `.data/debian-docs/` and `dpkg-deb -x` unpacks them there: nothing is installed on the machine, and
 * later runs reuse the folder. The manuals are DocBook's HTML, one file per chapter; an item is a
 * section of the first level (an `h2`, with its subsections) or a chapter's introduction, its content
 * the section's HTML as the manual has it, its address the section in the manual as Debian publishes it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AnyNode, Element } from 'domhandler';
import { findAll, findOne, getOuterHTML, isTag, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { normalizeText } from '#knowledge/text/normalize.js';

const run = promisify(execFile);

export interface DebianManual {
  /** The Debian package that ships it. */
  package: string;
  /** Its HTML inside the package, `index.en.html` the table of contents. */
  dir: string;
  /** Starts each item's `externalId`. */
  id: string;
  /** Where Debian publishes the same files: items need an http(s) address, which a file URL is not. */
  url: string;
}

export const debianManuals: DebianManual[] = [
  {
    package: 'debian-faq',
    dir: 'usr/share/doc/debian/FAQ',
    id: 'debian-faq',
    url: 'https://www.debian.org/doc/manuals/debian-faq/',
  },
  {
    package: 'debian-reference-en',
    dir: 'usr/share/debian-reference',
    id: 'debian-reference',
    url: 'https://www.debian.org/doc/manuals/debian-reference/',
  },
];

export interface DocSection {
  /** The id the manual gives the section (or the chapter, for its introduction). */
  anchor: string;
  /** The chapter's heading, then the section's: `Chapter 2. Getting … — 2.1. What is …?`. */
  title: string;
  html: string;
}

export interface DebianDocsCorpus {
  items: Array<ReturnType<typeof sectionItem>>;
  summary: { sections: number; characters: number; textCharacters: number; packages: string };
}

const defaultCacheDir = fileURLToPath(new URL('../../.data/debian-docs', import.meta.url));

/**
 * The corpus, in the books' order. `summary` is what a benchmark prints: how many sections, their
 * characters as sent (HTML) and as ingestion chunks them (`normalizeText`), the packages' versions.
 */
export async function debianDocsCorpus({ cacheDir = defaultCacheDir } = {}): Promise<DebianDocsCorpus> {
  const packages = await unpackedDebianPackages(manualPackages(), cacheDir);
  const items = debianManuals.flatMap((manual) => {
    const dir = join(cacheDir, 'root', manual.dir);
    const files = chapterFiles(readFileSync(join(dir, 'index.en.html'), 'utf8'));
    return manualItems(
      manual,
      files.map((file) => ({ file, html: readFileSync(join(dir, file), 'utf8') })),
    );
  });
  if (items.length === 0) throw new Error(`no section found in ${debianManuals.map((m) => m.package).join(', ')}`);
  const sum = (lengths: number[]) => lengths.reduce((a, b) => a + b, 0);
  return {
    items,
    summary: {
      sections: items.length,
      characters: sum(items.map((item) => item.data.content.length)),
      textCharacters: sum(items.map((item) => normalizeText(item.data.content).length)),
      packages: packages.map(({ name, version }) => `${name} ${version}`).join(', '),
    },
  };
}

/** The folder the manuals' packages are unpacked in (fetched by the first caller): the manuals are under `usr/share/…`. */
export async function unpackedDebianDocs({ cacheDir = defaultCacheDir } = {}): Promise<string> {
  await unpackedDebianPackages(manualPackages(), cacheDir);
  return join(cacheDir, 'root');
}

/** A manual's items from its chapter files; a repeated id (two items would be one) is an error. */
export function manualItems(manual: DebianManual, chapters: Array<{ file: string; html: string }>) {
  const items = chapters.flatMap(({ file, html }) => chapterSections(html).map((section) => sectionItem(manual, file, section)));
  const seen = new Set<string>();
  for (const { externalId } of items) {
    if (seen.has(externalId)) throw new Error(`${manual.package}: two sections are ${externalId}`);
    seen.add(externalId);
  }
  return items;
}

export function sectionItem(manual: DebianManual, file: string, section: DocSection) {
  return {
    integrationId: 'bench',
    sourceType: 'ARTICLE' as const,
    externalId: `${manual.id}-${section.anchor}`,
    sourceOrigin: 'bench',
    data: { title: section.title, content: section.html, url: `${manual.url}${file}#${section.anchor}` },
  };
}

/** The files of a book's parts (preface, chapters, appendices) in its order, from its table of contents. */
export function chapterFiles(indexHtml: string): string[] {
  const toc = findOne((el) => hasClass(el, 'toc'), parse(indexHtml).children);
  const links = toc ? findAll((el) => el.name === 'a' && isPart(el.parent), [toc]) : [];
  return [...new Set(links.map((a) => (a.attribs.href ?? '').split('#')[0]!).filter(Boolean))];
}

/**
 * A chapter file's sections: the chapter's introduction (what it has before its first section), then
 * each section of the first level with its subsections. The page's navigation, the chapter's table of
 * contents and its footnotes are left out, and so is a section without text.
 */
export function chapterSections(html: string): DocSection[] {
  const chapter = findOne(isPart, parse(html).children);
  if (!chapter) return [];
  const chapterTitle = headingText(chapter);
  const apparatus = ['titlepage', 'toc', 'footnotes', 'section'];
  const parts = [
    {
      anchor: anchorOf(chapter),
      title: chapterTitle,
      nodes: chapter.children.filter((node) => !apparatus.some((name) => hasClass(node, name))),
    },
    ...chapter.children
      .filter((node) => hasClass(node, 'section'))
      .map((section) => ({
        anchor: anchorOf(section),
        title: `${chapterTitle} — ${headingText(section)}`,
        nodes: section.children.filter((node) => node !== titlePage(section)),
      })),
  ];
  return parts
    .filter(({ nodes }) => textContent(nodes).trim() !== '')
    .map(({ anchor, title, nodes }) => ({ anchor, title, html: getOuterHTML(nodes, { encodeEntities: 'utf8' }).trim() }));
}

// The Reference is XHTML: `<a id="…"/>` must close itself, not swallow what follows.
const parse = (html: string) => parseDocument(html, { recognizeSelfClosing: true });

function hasClass(node: AnyNode | null, name: string): node is Element {
  return !!node && isTag(node) && (node.attribs.class ?? '').split(/\s+/).includes(name);
}

function isPart(node: AnyNode | null): node is Element {
  return ['chapter', 'preface', 'appendix'].some((name) => hasClass(node, name));
}

const titlePage = (part: Element) => part.children.find((node) => hasClass(node, 'titlepage'));

function heading(part: Element): Element {
  const page = titlePage(part);
  const found = page && findOne((el) => /^h[1-6]$/.test(el.name), [page]);
  if (!found) throw new Error(`a ${part.attribs.class} without a heading: ${textContent(part).slice(0, 80)}`);
  return found;
}

const headingText = (part: Element) => textContent(heading(part)).replace(/\s+/g, ' ').trim();

/** The id DocBook puts on the heading's anchor (or on the part itself). */
function anchorOf(part: Element): string {
  const id = findOne((el) => el.name === 'a' && !!el.attribs.id, [heading(part)])?.attribs.id ?? part.attribs.id;
  if (!id) throw new Error(`"${headingText(part)}" has no id`);
  return id;
}

export interface DebianPackage {
  name: string;
  version: string;
}

const manualPackages = () => debianManuals.map((manual) => manual.package);

/**
 * Debian packages `names` unpacked (not installed) in `cacheDir/root`, fetched by the first caller and
 * reused by later ones; `packages.json`, written last, names their versions.
 */
export async function unpackedDebianPackages(names: string[], cacheDir: string): Promise<DebianPackage[]> {
  const record = join(cacheDir, 'packages.json');
  if (!existsSync(record)) await fetchPackages(names, cacheDir);
  return JSON.parse(readFileSync(record, 'utf8')) as DebianPackage[];
}

/**
 * Downloads and unpacks the packages in a scratch folder renamed into place, so an interrupted
 * run leaves no half cache. Stale package lists make `apt-get download` fail: they are refreshed once.
 */
async function fetchPackages(names: string[], cacheDir: string): Promise<void> {
  const staging = `${cacheDir}.fetching-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const download = () => run('apt-get', ['download', ...names], { cwd: staging });
    try {
      await download();
    } catch {
      await run('apt-get', ['update']);
      await download();
    }
    const packages: DebianPackage[] = [];
    for (const deb of readdirSync(staging)
      .filter((name) => name.endsWith('.deb'))
      .sort()) {
      const { stdout } = await run('dpkg-deb', ['--show', '--showformat=${Package} ${Version}', join(staging, deb)]);
      const [name = deb, version = 'unknown'] = stdout.trim().split(' ');
      await run('dpkg-deb', ['-x', join(staging, deb), join(staging, 'root')]);
      packages.push({ name, version });
    }
    writeFileSync(join(staging, 'packages.json'), `${JSON.stringify(packages, null, 2)}\n`);
    rmSync(cacheDir, { recursive: true, force: true });
    renameSync(staging, cacheDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
