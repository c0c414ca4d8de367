/** Building blocks shared by the request and response schemas. */

export const uuid = { type: 'string', format: 'uuid' } as const;

export const timestamp = {
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds and Z',
  examples: ['2026-11-25T10:00:00.000Z'],
} as const;

export const name = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const errorBody = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', examples: ['invalid_payload'] },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['message'],
            properties: {
              path: { type: 'string', description: 'JSON Pointer of the offending field' },
              message: { type: 'string' },
            },
          },
        },
      },
    },
  },
} as const;

/** The schema, or null. */
export const nullable = (schema: object) => ({ oneOf: [schema, { type: 'null' }] });

/** A JSON object of exactly these properties, all of them required unless listed in `optional`. */
export function objectOf(properties: Record<string, object>, optional: string[] = []): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    properties,
  };
}
