/**
 * A declared language as a lower-case BCP 47 tag (`en-gb`), or undefined when the declaration is empty
 * or not a language tag. Documents write it loosely (`EN_us`, ` de `), so `_` becomes `-` before `Intl`
 * checks and canonicalizes it.
 */
export function languageTag(declared: string | null | undefined): string | undefined {
  const tag = declared?.trim().replaceAll('_', '-');
  if (!tag) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0]?.toLowerCase();
  } catch {
    return undefined;
  }
}
