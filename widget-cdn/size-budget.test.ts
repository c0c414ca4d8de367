import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { bundleWidget, gzippedSize, integrityOf } from './build/bundle.js';
import { listReleases } from './build/releases.js';

/*
 * The size budget of the widget files, gzipped as they travel: the loader at most 1,024 bytes, the
 * widget at most 18 kB. The widget was 14,046 bytes when the budget was first set (16 kB), 15,803 at
 * v1.2.0 (a verified visitor's list of conversations) and 16,987 at v1.3.0 (rating answers and
 * scoring a conversation), when the budget became 18 kB: a change that doubles it still fails here.
 * The published interface allows about 150 kB; we keep to about an eighth of that.
 */
const budget = { 'loader.js': 1_024, 'widget.js': 18_000 };
const releasesDir = fileURLToPath(new URL('./releases', import.meta.url));

test('the loader and the widget built from the current source stay within their budgets', async (t) => {
  const files = await bundleWidget({ version: 'v1.0.0' });
  for (const [file, limit] of Object.entries(budget)) {
    const size = gzippedSize(files[file as keyof typeof files]);
    t.log(`${file}: ${size} bytes gzipped (budget ${limit})`);
    t.true(size <= limit, `${file} is ${size} bytes gzipped; the budget is ${limit}`);
  }
});

test('every committed release matches its integrity.json and its budget, and latest names one of them', async (t) => {
  const { versions, latest } = await listReleases(releasesDir);
  t.true(versions.length > 0);
  t.true(latest !== undefined && versions.includes(latest));
  for (const version of versions) {
    const integrity = JSON.parse(readFileSync(join(releasesDir, version, 'integrity.json'), 'utf8'));
    for (const [file, limit] of Object.entries(budget)) {
      const bytes = readFileSync(join(releasesDir, version, file));
      t.is(integrity[file], integrityOf(bytes), `${version}/${file}`);
      t.true(gzippedSize(bytes) <= limit, `${version}/${file}`);
    }
  }
});
