/**
 * The value of `make()`, made at the first call and kept; a failure is not kept, so the next call
 * tries again. For what a process reads or builds once and then serves from memory (page files).
 */
export function madeOnce<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}
