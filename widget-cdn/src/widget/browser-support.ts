/**
 * The browser floor: Chrome and Edge 111, Safari 16.2, Firefox 113. Each check is a feature the
 * widget uses and the floor brings: color-mix() in its styles (the newest of them), Shadow DOM for
 * its isolation, and structuredClone as a marker of the same era of engines.
 */
export function browserIsSupported(): boolean {
  try {
    return (
      CSS.supports('color', 'color-mix(in srgb, red, blue)') &&
      'attachShadow' in Element.prototype &&
      typeof structuredClone === 'function'
    );
  } catch {
    return false;
  }
}

export const unsupportedBrowserWarning =
  '[widget] this browser is older than the supported versions (Chrome/Edge 111, Safari 16.2, Firefox 113): the chat widget is not shown.';

/** What `window.widget` is in an older browser: it takes every command and does nothing, so pages never throw. */
export function ignoreEveryCommand(): void {}
