import type { ErrorObject } from 'ajv';
import { createAjv } from '#platform/json-schema.js';
import { invalidPayload, type ErrorDetail } from './errors.js';
import { wordsForPattern } from './schemas/text-patterns.js';

/** The formats the schemas use, in words. */
const formatWords: Record<string, string> = {
  uuid: 'must be a UUID, such as 5c0f7e73-a4fe-4df6-9bf1-bf89a4065476',
  uri: 'must be an absolute address, such as https://example.com/page',
  'date-time': 'must be a time in ISO 8601 with its offset, such as 2026-11-25T10:00:00.000Z',
  date: 'must be a day, YYYY-MM-DD, such as 2026-11-25',
  email: 'must be an email address',
};

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
    } else if (error.keyword === 'pattern') {
      // Never the regular expression itself: the words of `textPatterns`, or a plain statement.
      message = wordsForPattern.get((error.params as { pattern: string }).pattern) ?? 'is not in the expected form';
    } else if (error.keyword === 'format') {
      message = formatWords[(error.params as { format: string }).format] ?? message;
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return { path: path || '/', message };
  });
}
