/**
 * The languages the service speaks to visitors and customers. A conversation's locale is resolved
 * once, where it starts (the widget's start or the messaging channel's first message), and carried on
 * its ref; the widget's configuration resolves the one it asks for. Here, in workflow code, because
 * the ref (a workflow's input) carries it and workflow code imports only workflow code; the words
 * themselves are the answering library's (`lib/answering/locales.ts`).
 */
export const locales = ['en', 'de'] as const;
export type Locale = (typeof locales)[number];

/** The supported locale closest to `tag` (`de-AT` → `de`), else English. */
export function resolveLocale(tag: string | null | undefined): Locale {
  const language = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (locales as readonly string[]).includes(language ?? '') ? (language as Locale) : 'en';
}
