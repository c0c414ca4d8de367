import type { ReleaseIntegrity } from './releases.js';

/** What a tenant pastes into a page, for each way of embedding (the service interface's "Widget embedding interface"). */
export interface EmbedSnippets {
  /** The module from `latest/`: always the newest release. */
  latest: string;
  /** One release, checked by the browser against its SRI hash (`crossorigin` makes the check happen). */
  pinned: string;
  /** The deferred loader: a queue stub now, the bundle on the first interaction or when idle. */
  loader: string;
}

const init = `<script type="module">window.widget('init', { operatorKey: 'op_…' });</script>`;

/** `cdnUrl` without a trailing slash; the `{cdn_url}` placeholder when the public address is not known. */
export function embedSnippets({
  cdnUrl,
  version,
  integrity,
}: {
  cdnUrl: string;
  version: string;
  integrity: ReleaseIntegrity;
}): EmbedSnippets {
  return {
    latest: [`<script type="module" src="${cdnUrl}/latest/widget.js"></script>`, init].join('\n'),
    pinned: [
      `<script type="module" src="${cdnUrl}/${version}/widget.js" integrity="${integrity['widget.js']}" crossorigin="anonymous"></script>`,
      init,
    ].join('\n'),
    loader: [
      `<script src="${cdnUrl}/latest/loader.js" data-idle="3000"></script>`,
      `<script>window.widget('init', { operatorKey: 'op_…' });</script>`,
    ].join('\n'),
  };
}
