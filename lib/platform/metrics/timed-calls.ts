import { wrapMethods } from '../wrapped-methods.js';

/**
 * An object whose every method reports how long each call took to `observe`, by the method's name
 * (a call that returns a promise: until it settled, failed or not): the boundary of our code with a
 * dependency (Redis, Weaviate), timed as `traceCalls` traces it. Other properties are passed through.
 */
export function timeCalls<T extends object>(target: T, observe: (method: string, seconds: number) => void): T {
  return wrapMethods(target, (name, method) => (...args) => {
    const started = performance.now();
    const done = () => observe(name, (performance.now() - started) / 1000);
    let result: unknown;
    try {
      result = method(...args);
    } catch (error) {
      done();
      throw error;
    }
    if (result instanceof Promise) return result.finally(done);
    done();
    return result;
  });
}
