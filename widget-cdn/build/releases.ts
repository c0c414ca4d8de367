import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, open, readdir, readlink, rename, rm, stat, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { brotli, gzip, integrityOf } from './digests.js';
import { compareReleaseNames, isReleaseName, toReleaseName } from './versions.js';

/**
 * A releases folder: one immutable `v<x.y.z>/` folder per published version and a relative symlink
 * `latest -> v<x.y.z>`, the only thing that ever moves. Every change becomes visible in one
 * `rename`, so the file server never sees half a release or a missing `latest`.
 */

/** The files a release is built from; each is published with its `.br` and `.gz` siblings. */
export const releaseFiles = ['widget.js', 'loader.js'] as const;
export type ReleaseFile = (typeof releaseFiles)[number];

export const latestLink = 'latest';

export type ReleaseIntegrity = Record<ReleaseFile, string>;

export interface PublishReleaseInput {
  releasesDir: string;
  /** `1.2.3` or `v1.2.3`. */
  version: string;
  files: Record<ReleaseFile, string>;
}

export interface PublishedRelease {
  /** The release name, `v1.2.3`. */
  version: string;
  integrity: ReleaseIntegrity;
  sizes: Record<ReleaseFile, { bytes: number; gzip: number }>;
  /** Where `latest` points after publishing: the highest published version. */
  latest: string;
}

export class ReleaseExistsError extends Error {
  constructor(version: string) {
    super(`${version} is already published and is never overwritten: publish a new version instead.`);
    this.name = 'ReleaseExistsError';
  }
}

export class ReleaseNotFoundError extends Error {
  constructor(version: string, releasesDir: string) {
    super(`${version} is not published in ${releasesDir}: see the list of releases.`);
    this.name = 'ReleaseNotFoundError';
  }
}

/**
 * Writes a new release into a temp folder inside `releasesDir`, renames it into place, then points
 * `latest` at the highest published version (so publishing an older patch never moves `latest`
 * back). Refuses a version that exists.
 */
export async function publishRelease({ releasesDir, version, files }: PublishReleaseInput): Promise<PublishedRelease> {
  const name = toReleaseName(version);
  const target = join(releasesDir, name);
  await mkdir(releasesDir, { recursive: true });
  if (await exists(target)) throw new ReleaseExistsError(name);

  const staging = await mkdtemp(join(releasesDir, `.publish-${name}-`));
  let written: Omit<PublishedRelease, 'version' | 'latest'>;
  try {
    written = await writeRelease(staging, files);
    // mkdtemp makes the folder private; a release is read by whichever user serves the files.
    await chmod(staging, 0o755);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // rename(2) refuses a non-empty target: someone published the same version meanwhile.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new ReleaseExistsError(name);
    throw error;
  }

  const { versions } = await listReleases(releasesDir);
  const latest = versions.at(-1)!;
  await pointLatestAt({ releasesDir, version: latest });
  return { version: name, ...written, latest };
}

async function writeRelease(dir: string, files: PublishReleaseInput['files']) {
  const integrity = {} as ReleaseIntegrity;
  const sizes = {} as PublishedRelease['sizes'];
  for (const file of releaseFiles) {
    const bytes = Buffer.from(files[file], 'utf8');
    const gzipped = gzip(bytes);
    await writeDurably(join(dir, file), bytes);
    await writeDurably(join(dir, `${file}.gz`), gzipped);
    await writeDurably(join(dir, `${file}.br`), brotli(bytes));
    integrity[file] = integrityOf(bytes);
    sizes[file] = { bytes: bytes.byteLength, gzip: gzipped.byteLength };
  }
  await writeDurably(join(dir, 'integrity.json'), `${JSON.stringify(integrity, null, 2)}\n`);
  return { integrity, sizes };
}

/** Flushed to disk before the rename, so a crash cannot leave a visible release with empty files. */
async function writeDurably(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Rollback and roll-forward: points `latest` at a published version by creating a new symlink and
 * renaming it over the old one. Resolves to where `latest` pointed before.
 */
export async function pointLatestAt({
  releasesDir,
  version,
}: {
  releasesDir: string;
  version: string;
}): Promise<{ previous: string | undefined; latest: string }> {
  const name = toReleaseName(version);
  const folder = await stat(join(releasesDir, name)).catch(() => undefined);
  if (!folder?.isDirectory()) throw new ReleaseNotFoundError(name, releasesDir);

  const previous = await latestVersion(releasesDir);
  const temporary = join(releasesDir, `${latestLink}.tmp-${randomBytes(6).toString('hex')}`);
  await symlink(name, temporary);
  try {
    await rename(temporary, join(releasesDir, latestLink));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENOTEMPTY') {
      throw new Error(`${join(releasesDir, latestLink)} is a folder, not a symlink: remove it, then point latest again.`);
    }
    throw error;
  }
  return { previous, latest: name };
}

/** The published versions, oldest first by semantic version, and the one `latest` points at. */
export async function listReleases(releasesDir: string): Promise<{ versions: string[]; latest: string | undefined }> {
  const entries = await readdir(releasesDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const versions = entries
    .filter((entry) => entry.isDirectory() && isReleaseName(entry.name))
    .map((entry) => entry.name)
    .sort(compareReleaseNames);
  return { versions, latest: await latestVersion(releasesDir) };
}

/**
 * The release `latest` points at; undefined when there is no link yet, or when it points anywhere
 * but at a release folder beside it (it is then not ours to follow).
 */
export async function latestVersion(releasesDir: string): Promise<string | undefined> {
  try {
    const target = await readlink(join(releasesDir, latestLink));
    return isReleaseName(target) ? target : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EINVAL' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Anything by that name counts, even a dangling symlink. */
async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}
