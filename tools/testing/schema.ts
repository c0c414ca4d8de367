import type { ExecutionContext } from 'ava';
import { createAjv } from '#platform/json-schema.js';

const ajv = createAjv({ strict: false });

/** Asserts that a response body has the shape the OpenAPI document promises. */
export function assertMatchesSchema(t: ExecutionContext, schema: object, value: unknown): void {
  const validate = ajv.compile(schema);
  t.true(validate(value), `does not match the documented schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
}
