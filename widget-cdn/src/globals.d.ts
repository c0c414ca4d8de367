/** The release's version, such as "v1.0.0"; replaced at build time (esbuild `define`) in both bundles. */
declare const __WIDGET_VERSION__: string;

/** Loader only: the sha384 SRI string of the same release's widget.js, replaced at build time. */
declare const __WIDGET_INTEGRITY__: string;

/**
 * `window.widget`: the page's command function. Until widget.js has run it is the queue stub of the
 * loader (or of the page's own snippet), which keeps each call's `arguments` in `q`.
 */
interface WidgetGlobal {
  (command?: unknown, ...args: unknown[]): void;
  q?: ArrayLike<unknown>[];
}

interface Window {
  widget?: WidgetGlobal;
}
