import type { ErrorObject } from 'ajv';
import { createAjv } from '#platform/json-schema.js';
import { invalidPayload, type ErrorDetail } from './errors.js';

const strict = createAjv({ coerceTypes: false });
// Query strings are all text: numbers and booleans are read from it, and defaults filled in.
const lenient = createAjv({ coerceTypes: true, useDefaults: true });

/** Compiles a schema once into an assertion that throws 400 `invalid_payload` with one detail per problem. */
export function compileValidator<T>(schema: object, what: 'request body' | 'query' = 'request body'): (value: unknown) => T {
  const validate = (what === 'query' ? lenient : strict).compile(schema);
  return (value) => {
    if (validate(value)) return value as T;
    const details = describeErrors(validate.errors ?? []);
    throw invalidPayload(`The ${what} is invalid: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}.`, details);
  };
}

/** One detail per problem, with the JSON Pointer of the offending field. */
export function describeErrors(errors: ErrorObject[], basePath = ''): ErrorDetail[] {
  return errors.map((error) => {
    let path = basePath + error.instancePath;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      path += `/${(error.params as { missingProperty: string }).missingProperty}`;
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      path += `/${(error.params as { additionalProperty: string }).additionalProperty}`;
      message = 'is not an allowed field';
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return { path: path || '/', message };
  });
}
