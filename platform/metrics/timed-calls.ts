/**
 * An object whose every method reports how long each call took to `observe`, by the method's name
 * (a call that returns a promise: until it settled, failed or not): the boundary of our code with a
 * dependency (Redis, Weaviate), timed as `traceCalls` traces it. Other properties are passed through.
 */
export function timeCalls<T extends object>(target: T, observe: (method: string, seconds: number) => void): T {
  const timed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== 'function') {
      timed[name] = value;
      continue;
    }
    timed[name] = (...args: unknown[]) => {
      const started = performance.now();
      const done = () => observe(name, (performance.now() - started) / 1000);
      let result: unknown;
      try {
        result = value(...args);
      } catch (error) {
        done();
        throw error;
      }
      if (result instanceof Promise) return result.finally(done);
      done();
      return result;
    };
  }
  return timed as T;
}
