import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleWidget, type WidgetBundle } from './bundle.js';
import { embedSnippets } from './embed-snippets.js';
import { listReleases, pointLatestAt, publishRelease } from './releases.js';
import { toReleaseName } from './versions.js';

/**
 * The release commands behind `npm run widget:publish -- <version>`, `widget:rollback -- <version>`
 * and `widget:releases`. Publishing builds the current source; the bundler is passed in so that
 * tests can publish fixtures.
 */

const defaultReleasesDir = fileURLToPath(new URL('../releases', import.meta.url));

const usage = `Usage:
  npm run widget:publish -- <version> [--releases <dir>] [--cdn-url <url>]
      build widget-cdn/src and publish it as v<version> (never overwrites); latest moves to the highest version
  npm run widget:rollback -- <version> [--releases <dir>]
      point latest at a published version (back or forward)
  npm run widget:releases [-- --releases <dir>]
      list the published versions and where latest points

  --releases <dir>   the releases folder (default: widget-cdn/releases)
  --cdn-url <url>    the public {cdn_url}, used in the printed embed snippets
`;

export interface WidgetCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface WidgetCliDeps {
  bundle: (input: { version: string }) => Promise<WidgetBundle>;
}

class UsageError extends Error {}

/** Runs one command; resolves to the exit code (0 done, 1 wrong usage or failed). */
export async function runWidgetCli(
  argv: string[],
  io: WidgetCliIo,
  deps: WidgetCliDeps = { bundle: bundleWidget },
): Promise<number> {
  let command: ReturnType<typeof parseCommand>;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`error: ${error.message}\n\n${usage}`);
    return 1;
  }

  const releasesDir = command.releasesDir;
  const print = (...lines: string[]) => io.stdout.write(`${lines.join('\n')}\n`);
  try {
    switch (command.name) {
      case 'publish': {
        const version = toReleaseName(command.version);
        const files = await deps.bundle({ version });
        const release = await publishRelease({ releasesDir, version, files });
        const snippets = embedSnippets({ cdnUrl: command.cdnUrl, version: release.version, integrity: release.integrity });
        print(
          `Published ${release.version} in ${releasesDir}; latest -> ${release.latest}`,
          '',
          ...Object.entries(release.sizes).map(
            ([file, size]) =>
              `  ${file.padEnd(10)} ${String(size.bytes).padStart(7)} bytes  ${String(size.gzip).padStart(6)} gzipped`,
          ),
          '',
          'integrity.json:',
          ...Object.entries(release.integrity).map(([file, integrity]) => `  ${file.padEnd(10)} ${integrity}`),
          '',
          'Embed, always the newest release:',
          snippets.latest,
          '',
          `Embed, pinned to ${release.version} (checked by the browser):`,
          snippets.pinned,
          '',
          'Embed with the deferred loader:',
          snippets.loader,
        );
        return 0;
      }
      case 'rollback': {
        const { previous, latest } = await pointLatestAt({ releasesDir, version: command.version });
        print(`latest -> ${latest} (was ${previous ?? 'not set'})`);
        return 0;
      }
      case 'list': {
        const { versions, latest } = await listReleases(releasesDir);
        if (versions.length === 0) print(`No releases in ${releasesDir}.`);
        for (const version of versions) print(`${version}${version === latest ? '  <- latest' : ''}`);
        return 0;
      }
    }
  } catch (error) {
    // One line, no stack: the messages say what to do (esbuild's span several lines).
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`error: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    return 1;
  }
}

function parseCommand(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { releases: { type: 'string' }, 'cdn-url': { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  const [name, ...args] = positionals;
  const releasesDir = values.releases ?? defaultReleasesDir;
  const cdnUrl = (values['cdn-url'] ?? '{cdn_url}').replace(/\/+$/, '');
  if (name === 'publish' && args.length === 1) return { name, version: args[0]!, releasesDir, cdnUrl } as const;
  if (name === 'rollback' && args.length === 1 && values['cdn-url'] === undefined) {
    return { name, version: args[0]!, releasesDir } as const;
  }
  if (name === 'list' && args.length === 0 && values['cdn-url'] === undefined) return { name, releasesDir } as const;
  throw new UsageError(name ? `wrong arguments for "${name}"` : 'no command given');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runWidgetCli(process.argv.slice(2), process);
}
