import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { integrityOf } from './digests.js';
import { toReleaseName } from './versions.js';

export { gzippedSize, integrityOf } from './digests.js';

/** The two files of a release, as published: `widget.js` (ES module) and `loader.js` (classic script). */
export interface WidgetBundle {
  'widget.js': string;
  'loader.js': string;
}

export interface WidgetEntries {
  widget: string;
  loader: string;
}

export interface BundleWidgetInput {
  /** `1.2.3` or `v1.2.3`; compiled in as `__WIDGET_VERSION__` in the release-name form `v1.2.3`. */
  version: string;
  /** Entry files; the widget's own sources by default (tests pass fixtures). */
  entries?: Partial<WidgetEntries>;
}

const sourceDir = new URL('../src/', import.meta.url);

export const defaultEntries: WidgetEntries = {
  widget: fileURLToPath(new URL('widget/index.ts', sourceDir)),
  loader: fileURLToPath(new URL('loader/loader.ts', sourceDir)),
};

/** Browsers with module scripts, private class fields and the CSS the widget relies on. */
export const browserTargets = ['chrome111', 'edge111', 'safari16.2', 'firefox113'];

const common: BuildOptions = {
  bundle: true,
  write: false,
  minify: true,
  legalComments: 'none',
  charset: 'utf8',
  sourcemap: false,
  target: browserTargets,
  tsconfig: fileURLToPath(new URL('tsconfig.json', sourceDir)),
  logLevel: 'silent',
};

/**
 * Builds a release's two files. The widget comes first because the loader carries the widget's
 * SRI hash (`__WIDGET_INTEGRITY__`): the loader only ever loads the exact widget bytes it was built
 * with. Same sources and version, same bytes.
 */
export async function bundleWidget({ version, entries = {} }: BundleWidgetInput): Promise<WidgetBundle> {
  const release = toReleaseName(version);
  const { widget, loader } = { ...defaultEntries, ...entries };
  const widgetBytes = await bundleOne(widget, {
    format: 'esm',
    define: { __WIDGET_VERSION__: JSON.stringify(release) },
  });
  const loaderBytes = await bundleOne(loader, {
    format: 'iife',
    define: { __WIDGET_VERSION__: JSON.stringify(release), __WIDGET_INTEGRITY__: JSON.stringify(integrityOf(widgetBytes)) },
  });
  const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
  return { 'widget.js': text(widgetBytes), 'loader.js': text(loaderBytes) };
}

async function bundleOne(entry: string, options: Pick<BuildOptions, 'format' | 'define'>): Promise<Uint8Array> {
  const result = await build({ ...common, ...options, entryPoints: [entry] });
  const [output, ...extra] = result.outputFiles ?? [];
  if (!output || extra.length > 0) throw new Error(`Bundling ${entry} gave ${result.outputFiles?.length ?? 0} files, not one.`);
  return output.contents;
}
