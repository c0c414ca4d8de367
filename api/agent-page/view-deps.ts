/*
 * What a view loaded by the page (app.ts) is given: the page's API call with the user token and its
 * helpers. Types only: nothing of this module reaches the browser.
 */

export interface ViewDeps {
  /** The page's API call with the user token: `body` as JSON, or a FormData as it is (an upload). */
  api<Result>(method: string, path: string, body?: unknown): Promise<Result>;
  el<Tag extends keyof HTMLElementTagNameMap>(tag: Tag, className?: string, text?: string | null): HTMLElementTagNameMap[Tag];
  showError(message: string): void;
  /** What an error says, for the page. */
  messageOf(error: unknown): string;
  /** The field-by-field problems of an API refusal (`error.details`), if it gave any. */
  detailsOf(error: unknown): { path?: string; message: string }[];
  /** A time as the page shows times. */
  time(iso: string | null | undefined): string;
}
