import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/**
 * One way to build an ajv instance: JSON Schema 2020-12 (the dialect of OpenAPI 3.1),
 * every error reported rather than the first, formats such as `uri` and `date-time` checked.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, ...options });
  formats.default(ajv);
  return ajv;
}
