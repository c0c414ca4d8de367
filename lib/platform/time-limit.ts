/**
 * `promise`, or a rejection saying `what` did not happen once `ms` pass first. The promise itself
 * runs on; its timer is cleared either way, so a settled race holds nothing open.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'no answer'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
