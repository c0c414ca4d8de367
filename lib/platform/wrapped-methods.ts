export type Method = (...args: unknown[]) => unknown;

/**
 * A copy of `target` whose every method is `wrap(name, method)`; other properties are passed through.
 * How the boundary of our code with a dependency is traced (`tracing/traced-calls.ts`) and timed
 * (`metrics/timed-calls.ts`). The methods are called unbound: our stores are objects of closures.
 */
export function wrapMethods<T extends object>(target: T, wrap: (name: string, method: Method) => Method): T {
  return Object.fromEntries(
    Object.entries(target).map(([name, value]) => [name, typeof value === 'function' ? wrap(name, value as Method) : value]),
  ) as T;
}
