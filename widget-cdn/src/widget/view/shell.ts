import { styles } from './styles.js';

/**
 * The widget element on the page: `<div data-kb-widget>` at the end of the body, with an open
 * shadow root that holds the whole UI and its stylesheet, out of reach of the page's CSS.
 */
export function createShell(doc: Document, panelId: string | undefined): { host: HTMLElement; root: ShadowRoot } {
  const host = doc.createElement('div');
  host.setAttribute('data-kb-widget', '');
  if (panelId) host.id = panelId;
  const root = host.attachShadow({ mode: 'open' });
  const style = doc.createElement('style');
  style.textContent = styles;
  root.append(style);
  return { host, root };
}
