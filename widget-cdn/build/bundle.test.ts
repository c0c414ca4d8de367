import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { bundleWidget, defaultEntries, gzippedSize, integrityOf } from './bundle.js';

// Tiny stand-ins for the widget's sources, which are written elsewhere.
let dir: string;
let entries: { widget: string; loader: string };

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'widget-bundle-'));
  entries = { widget: join(dir, 'widget.ts'), loader: join(dir, 'loader.ts') };
  writeFileSync(join(dir, 'greeting.ts'), `export const greeting = (name: string): string => 'Hallo, ' + name + ' – ünïcödé';\n`);
  writeFileSync(
    entries.widget,
    [
      `import { greeting } from './greeting';`,
      `declare const __WIDGET_VERSION__: string;`,
      `export const version: string = __WIDGET_VERSION__;`,
      `export const base: string = new URL('.', import.meta.url).href;`,
      `(globalThis as { widgetGreeting?: string }).widgetGreeting = greeting(version);`,
    ].join('\n'),
  );
  writeFileSync(
    entries.loader,
    [
      `declare const __WIDGET_VERSION__: string;`,
      `declare const __WIDGET_INTEGRITY__: string;`,
      `const loaderState = { version: __WIDGET_VERSION__, integrity: __WIDGET_INTEGRITY__ };`,
      `(globalThis as { loaded?: unknown }).loaded = loaderState;`,
    ].join('\n'),
  );
});

test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test('the loader carries the version and the exact SRI hash of the widget it loads', async (t) => {
  const bundle = await bundleWidget({ version: 'v1.2.3', entries });
  const widgetHash = `sha384-${createHash('sha384').update(Buffer.from(bundle['widget.js'], 'utf8')).digest('base64')}`;
  t.is(integrityOf(bundle['widget.js']), widgetHash);

  const context: { loaded?: { version: string; integrity: string } } = {};
  runInNewContext(bundle['loader.js'], context);
  t.deepEqual(context.loaded, { version: 'v1.2.3', integrity: widgetHash });
  t.true(bundle['widget.js'].includes('"v1.2.3"'));
});

test('the version is compiled in as the release name', async (t) => {
  const bundle = await bundleWidget({ version: '1.2.3', entries });
  t.true(bundle['widget.js'].includes('"v1.2.3"'));
  t.false(bundle['widget.js'].includes('"1.2.3"'));
});

test('the same sources give the same bytes', async (t) => {
  const [first, second] = await Promise.all([
    bundleWidget({ version: 'v1.0.0', entries }),
    bundleWidget({ version: 'v1.0.0', entries }),
  ]);
  t.deepEqual(first, second);
  const other = await bundleWidget({ version: 'v1.0.1', entries });
  t.not(other['widget.js'], first['widget.js']);
  t.not(other['loader.js'], first['loader.js']);
});

test('the widget is a minified ES module, the loader a classic script (an IIFE)', async (t) => {
  const bundle = await bundleWidget({ version: 'v1.0.0', entries });
  t.regex(bundle['widget.js'], /export\s*\{/);
  t.true(bundle['widget.js'].includes('import.meta.url'));
  t.true(bundle['widget.js'].includes('Hallo, '), 'imports are bundled in');
  t.true(bundle['widget.js'].includes('ünïcödé'), 'UTF-8 kept as it is, not escaped');
  t.false(bundle['widget.js'].includes('declare'));
  t.false(bundle['widget.js'].includes('\n  '), 'minified');

  t.regex(bundle['loader.js'], /^(?:"use strict";)?\(\(\)=>\{[\s\S]*\}\)\(\);\n?$/);
  t.false(bundle['loader.js'].includes('export'));
  t.false(bundle['loader.js'].includes('loaderState'), 'local names are mangled');
});

test('a missing entry fails the build', async (t) => {
  await t.throwsAsync(bundleWidget({ version: 'v1.0.0', entries: { ...entries, loader: join(dir, 'missing.ts') } }));
});

test('the default entries are the widget sources', (t) => {
  t.regex(defaultEntries.widget, /widget-cdn[\\/]src[\\/]widget[\\/]index\.ts$/);
  t.regex(defaultEntries.loader, /widget-cdn[\\/]src[\\/]loader[\\/]loader\.ts$/);
});

test('the gzipped size is that of gzip at level 9', (t) => {
  const text = 'export const a = 1;'.repeat(100);
  t.is(gzippedSize(text), gzipSync(text, { level: 9 }).byteLength);
  t.true(gzippedSize(text) < text.length);
});
