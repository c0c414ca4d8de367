/**
 * Where focus goes back to when the chat window closes: the opener a trigger passed, else whatever
 * had focus on the page when it opened (so a page's own button works too when the launcher is off),
 * else nothing, and the caller falls back to the launcher.
 */
export interface FocusReturn {
  remember(opener?: Element): void;
  restore(fallback?: HTMLElement): void;
}

export function createFocusReturn(doc: Document, host: Element): FocusReturn {
  let opener: Element | undefined;
  return {
    remember(given) {
      const active = doc.activeElement;
      // Focus inside the shadow root shows as the host: that is the launcher, the fallback anyway.
      opener = given ?? (active && active !== doc.body && active !== host ? active : undefined);
    },
    restore(fallback) {
      const target = opener?.isConnected ? opener : fallback;
      opener = undefined;
      if (target && 'focus' in target) (target as HTMLElement).focus();
    },
  };
}
