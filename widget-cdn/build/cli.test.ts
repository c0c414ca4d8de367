import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runWidgetCli, type WidgetCliDeps } from './cli.js';
import { integrityOf } from './digests.js';
import { latestVersion } from './releases.js';

const bundle: WidgetCliDeps['bundle'] = async ({ version }) => ({
  'widget.js': `export const version = '${version}';`,
  'loader.js': `(()=>{window.v='${version}'})();`,
});

async function cli(t: ExecutionContext, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } };
  const code = await runWidgetCli(argv, io, { bundle });
  return { code, stdout, stderr };
}

function releasesDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'widget-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('publish prints sizes, integrity and the three embed snippets', async (t) => {
  const dir = releasesDir(t);
  const { code, stdout } = await cli(t, ['publish', '1.0.1', '--releases', dir, '--cdn-url', 'https://cdn.example.com/']);
  t.is(code, 0);
  const widgetSri = integrityOf(readFileSync(join(dir, 'v1.0.1', 'widget.js')));
  t.regex(stdout, /Published v1\.0\.1 .*latest -> v1\.0\.1/);
  t.regex(stdout, /widget\.js +\d+ bytes +\d+ gzipped/);
  t.regex(stdout, /loader\.js +\d+ bytes +\d+ gzipped/);
  t.true(stdout.includes(`<script type="module" src="https://cdn.example.com/latest/widget.js"></script>`));
  t.true(
    stdout.includes(
      `<script type="module" src="https://cdn.example.com/v1.0.1/widget.js" integrity="${widgetSri}" crossorigin="anonymous"></script>`,
    ),
  );
  t.true(stdout.includes(`<script src="https://cdn.example.com/latest/loader.js"`));
  t.true(stdout.includes(integrityOf(readFileSync(join(dir, 'v1.0.1', 'loader.js')))));
});

test('publishing a version twice fails on one line', async (t) => {
  const dir = releasesDir(t);
  t.is((await cli(t, ['publish', 'v1.0.0', '--releases', dir])).code, 0);
  const again = await cli(t, ['publish', '1.0.0', '--releases', dir]);
  t.is(again.code, 1);
  t.regex(again.stderr, /^error: v1\.0\.0 is already published[^\n]*\n$/);
});

test('rollback says where latest pointed before; releases lists them', async (t) => {
  const dir = releasesDir(t);
  await cli(t, ['publish', '1.0.0', '--releases', dir]);
  await cli(t, ['publish', '1.1.0', '--releases', dir]);

  const rollback = await cli(t, ['rollback', 'v1.0.0', '--releases', dir]);
  t.is(rollback.code, 0);
  t.is(rollback.stdout, 'latest -> v1.0.0 (was v1.1.0)\n');
  t.is(await latestVersion(dir), 'v1.0.0');

  const list = await cli(t, ['list', '--releases', dir]);
  t.is(list.stdout, 'v1.0.0  <- latest\nv1.1.0\n');

  const unknown = await cli(t, ['rollback', 'v9.0.0', '--releases', dir]);
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /^error: v9\.0\.0 is not published[^\n]*\n$/);
});

test('wrong usage prints the usage and exits 1', async (t) => {
  for (const argv of [
    [],
    ['publish'],
    ['publish', '1.0.0', 'extra'],
    ['rollback'],
    ['list', 'x'],
    ['frobnicate'],
    ['list', '--nope'],
  ]) {
    const { code, stderr } = await cli(t, argv);
    t.is(code, 1, argv.join(' '));
    t.regex(stderr, /Usage:/);
  }
  const invalid = await cli(t, ['publish', '1.0', '--releases', releasesDir(t)]);
  t.is(invalid.code, 1);
  t.regex(invalid.stderr, /^error: "1\.0" is not a release version[^\n]*\n$/);
});
