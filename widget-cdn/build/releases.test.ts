import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test, { type ExecutionContext } from 'ava';
import {
  latestVersion,
  listReleases,
  pointLatestAt,
  publishRelease,
  ReleaseExistsError,
  ReleaseNotFoundError,
  type ReleaseFile,
} from './releases.js';
import { InvalidVersionError } from './versions.js';

function releasesDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'widget-releases-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const filesOf = (version: string): Record<ReleaseFile, string> => ({
  'widget.js': `export const version = '${version}'; // ünïcödé ${'widget '.repeat(200)}`,
  'loader.js': `(() => { window.widgetVersion = '${version}'; })(); ${'loader '.repeat(50)}`,
});

const sri = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** Every file of a folder with its bytes and modification time. */
function snapshot(dir: string) {
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, bytes: readFileSync(join(dir, name)), mtime: statSync(join(dir, name)).mtimeMs }));
}

test('publishing writes the files, a correct integrity.json and precompressed siblings', async (t) => {
  const dir = releasesDir(t);
  const files = filesOf('v1.0.0');
  const release = await publishRelease({ releasesDir: dir, version: '1.0.0', files });

  t.is(release.version, 'v1.0.0');
  t.is(release.latest, 'v1.0.0');
  const folder = join(dir, 'v1.0.0');
  t.is(statSync(folder).mode & 0o777, 0o755, 'readable by whichever user serves the files');
  t.deepEqual(readdirSync(folder).sort(), [
    'integrity.json',
    'loader.js',
    'loader.js.br',
    'loader.js.gz',
    'widget.js',
    'widget.js.br',
    'widget.js.gz',
  ]);

  const integrity = JSON.parse(readFileSync(join(folder, 'integrity.json'), 'utf8'));
  t.deepEqual(Object.keys(integrity), ['widget.js', 'loader.js']);
  for (const file of ['widget.js', 'loader.js'] as const) {
    const bytes = readFileSync(join(folder, file));
    t.deepEqual(bytes, Buffer.from(files[file], 'utf8'));
    t.is(integrity[file], sri(bytes));
    t.is(release.integrity[file], sri(bytes));
    t.deepEqual(brotliDecompressSync(readFileSync(join(folder, `${file}.br`))), bytes);
    t.deepEqual(gunzipSync(readFileSync(join(folder, `${file}.gz`))), bytes);
    t.is(release.sizes[file].bytes, bytes.byteLength);
    t.is(release.sizes[file].gzip, statSync(join(folder, `${file}.gz`)).size);
    t.true(release.sizes[file].gzip < bytes.byteLength);
  }
  t.is(readlinkSync(join(dir, 'latest')), 'v1.0.0', 'a relative link');
  t.deepEqual(readdirSync(dir).sort(), ['latest', 'v1.0.0'], 'no temp folder or link left behind');
});

test('publishing an existing version throws and leaves it byte-identical', async (t) => {
  const dir = releasesDir(t);
  await publishRelease({ releasesDir: dir, version: 'v1.0.0', files: filesOf('v1.0.0') });
  const before = snapshot(join(dir, 'v1.0.0'));

  for (const version of ['v1.0.0', '1.0.0']) {
    await t.throwsAsync(publishRelease({ releasesDir: dir, version, files: filesOf('other') }), {
      instanceOf: ReleaseExistsError,
      message: /v1\.0\.0 is already published/,
    });
  }
  t.deepEqual(snapshot(join(dir, 'v1.0.0')), before);
  t.deepEqual(readdirSync(dir).sort(), ['latest', 'v1.0.0']);
});

test('latest points at the highest version by semantic version, not by string or by order of publishing', async (t) => {
  const dir = releasesDir(t);
  t.is(await latestVersion(dir), undefined);
  await publishRelease({ releasesDir: dir, version: 'v1.10.0', files: filesOf('v1.10.0') });
  const older = await publishRelease({ releasesDir: dir, version: 'v1.9.0', files: filesOf('v1.9.0') });
  t.is(older.latest, 'v1.10.0');
  t.is(await latestVersion(dir), 'v1.10.0');

  await publishRelease({ releasesDir: dir, version: 'v1.10.1', files: filesOf('v1.10.1') });
  await publishRelease({ releasesDir: dir, version: 'v2.0.0', files: filesOf('v2.0.0') });
  t.deepEqual(await listReleases(dir), { versions: ['v1.9.0', 'v1.10.0', 'v1.10.1', 'v2.0.0'], latest: 'v2.0.0' });
});

test('rollback points latest at an earlier version and back; an unknown version is an error', async (t) => {
  const dir = releasesDir(t);
  await publishRelease({ releasesDir: dir, version: 'v1.0.0', files: filesOf('v1.0.0') });
  await publishRelease({ releasesDir: dir, version: 'v1.1.0', files: filesOf('v1.1.0') });

  t.deepEqual(await pointLatestAt({ releasesDir: dir, version: 'v1.0.0' }), { previous: 'v1.1.0', latest: 'v1.0.0' });
  t.is(readlinkSync(join(dir, 'latest')), 'v1.0.0');
  t.is(readFileSync(join(dir, 'latest', 'widget.js'), 'utf8'), filesOf('v1.0.0')['widget.js']);
  t.deepEqual(await pointLatestAt({ releasesDir: dir, version: '1.1.0' }), { previous: 'v1.0.0', latest: 'v1.1.0' });

  await t.throwsAsync(pointLatestAt({ releasesDir: dir, version: 'v3.0.0' }), { instanceOf: ReleaseNotFoundError });
  await t.throwsAsync(pointLatestAt({ releasesDir: dir, version: '../v1.0.0' }), { instanceOf: InvalidVersionError });
  t.is(await latestVersion(dir), 'v1.1.0', 'a failed rollback leaves latest alone');
  t.deepEqual(readdirSync(dir).sort(), ['latest', 'v1.0.0', 'v1.1.0'], 'no temp links left behind');
});

test('a publish that fails half-way leaves no folder behind, and latest where it was', async (t) => {
  const dir = releasesDir(t);
  await publishRelease({ releasesDir: dir, version: 'v1.0.0', files: filesOf('v1.0.0') });
  // widget.js is written, then loader.js cannot be.
  const broken = { 'widget.js': 'export {};', 'loader.js': undefined } as unknown as Record<ReleaseFile, string>;
  await t.throwsAsync(publishRelease({ releasesDir: dir, version: 'v2.0.0', files: broken }));
  t.deepEqual(readdirSync(dir).sort(), ['latest', 'v1.0.0']);
  t.is(await latestVersion(dir), 'v1.0.0');
});

test('versions must be <major>.<minor>.<patch>', async (t) => {
  const dir = releasesDir(t);
  for (const version of ['1.0', 'v1.0.0-beta', 'latest', '../v1.0.0', 'v1.01.0', ' 1.0.0']) {
    await t.throwsAsync(publishRelease({ releasesDir: dir, version, files: filesOf(version) }), {
      instanceOf: InvalidVersionError,
    });
  }
  t.deepEqual(readdirSync(dir), []);
});

test('listing a folder that does not exist yet lists nothing', async (t) => {
  t.deepEqual(await listReleases(join(releasesDir(t), 'missing')), { versions: [], latest: undefined });
});
