/** The events a page can subscribe to. */
export const eventNames = ['ready', 'open', 'close', 'message:sent', 'message:received', 'error'] as const;

export type WidgetEventName = (typeof eventNames)[number];

type Handler = (payload: unknown) => void;

export interface WidgetEvents {
  on(name: string, handler: Handler): void;
  /** Without a handler: every handler of that event. */
  off(name: string, handler?: Handler): void;
  emit(name: WidgetEventName, payload: object): void;
  /** The widget element, the third place each event is dispatched; undefined while there is none. */
  attach(element: Element | undefined): void;
  /** Forgets every handler (on `destroy`). */
  clear(): void;
}

/**
 * Each event reaches the `on` handlers and is dispatched as a DOM event `widget:<name>` on window,
 * on document and on the widget element: pages that prefer addEventListener need no handle on
 * `window.widget`. A handler that throws is reported in the console and the others still run.
 */
export function createWidgetEvents(win: Window): WidgetEvents {
  const handlers = new Map<string, Set<Handler>>();
  let element: Element | undefined;

  return {
    on(name, handler) {
      if (!(eventNames as readonly string[]).includes(name)) console.warn(`[widget] there is no event "${name}"`);
      if (typeof handler !== 'function') return console.warn(`[widget] on("${name}") needs a function`);
      handlers.set(name, (handlers.get(name) ?? new Set()).add(handler));
    },
    off(name, handler) {
      if (handler) handlers.get(name)?.delete(handler);
      else handlers.delete(name);
    },
    emit(name, payload) {
      for (const handler of [...(handlers.get(name) ?? [])]) {
        try {
          handler(payload);
        } catch (error) {
          console.error(`[widget] a "${name}" handler failed:`, error);
        }
      }
      for (const target of [win, win.document, element])
        target?.dispatchEvent(new CustomEvent(`widget:${name}`, { detail: payload }));
    },
    attach(next) {
      element = next;
    },
    clear() {
      handlers.clear();
    },
  };
}
