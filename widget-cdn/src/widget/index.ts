import { browserIsSupported, ignoreEveryCommand, unsupportedBrowserWarning } from './browser-support.js';
import { createCommandFunction } from './commands.js';

/*
 * widget.js: importing it registers `window.widget`, then replays the calls the page (or the
 * loader) queued in `window.widget.q` before it arrived, in order.
 */

/** Marks our own command function, so that importing the widget a second time (from another URL) changes nothing. */
const INSTALLED = Symbol.for('kb-widget');

installWidget(window, import.meta.url);

function installWidget(win: Window, widgetUrl: string): void {
  const existing = typeof win.widget === 'function' ? win.widget : undefined;
  if (existing && INSTALLED in existing) return;
  const queued = Array.from(existing?.q ?? []);

  if (!browserIsSupported()) {
    console.warn(unsupportedBrowserWarning);
    win.widget = Object.assign(ignoreEveryCommand, { [INSTALLED]: true });
    return;
  }
  const widget = createCommandFunction({ win, widgetUrl, version: __WIDGET_VERSION__ });
  win.widget = Object.assign(widget, { [INSTALLED]: true });
  for (const args of queued) widget(...Array.from(args));
}
