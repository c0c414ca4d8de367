/** Building blocks shared by the request and response schemas. */

import type { JSONSchema } from 'json-schema-to-ts';
import { textPatterns } from './text-patterns.js';

export const uuid = { type: 'string', format: 'uuid' } as const;

export const timestamp = {
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds and Z',
  examples: ['2026-11-25T10:00:00.000Z'],
} as const;

/** Text a person writes: any characters but a lone surrogate (half a character), which no store or index can keep. */
export const text = <const Schema extends { maxLength: number; minLength?: number; description?: string }>(schema: Schema) =>
  ({ type: 'string', pattern: textPatterns.wellFormed.pattern, ...schema }) as const;

export const name = text({ minLength: 1, maxLength: 200 });

/** A secret the caller gives once: never shown again, so it is write-only. */
export const secret = (maxLength: number, description: string, pattern: string = textPatterns.secret.pattern) =>
  ({ type: 'string', pattern, minLength: 1, maxLength, description, writeOnly: true }) as const;

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
        requestId: {
          type: 'string',
          description:
            'Extension: the `x-request-id` of this answer. Quote it to support: it finds the request in the logs and its trace.',
        },
      },
    },
  },
} as const;

/** The schema, or null. */
export const nullable = <const S extends JSONSchema>(schema: S) => ({ oneOf: [schema, { type: 'null' }] }) as const;

/**
 * A JSON object of exactly these properties, all of them required unless listed in `optional`.
 * Its type keeps the properties and the required keys, so `FromSchema` can derive what it admits.
 */
export function objectOf<const P extends Record<string, JSONSchema>, const O extends readonly (keyof P & string)[] = []>(
  properties: P,
  optional?: O,
) {
  const optionalKeys: readonly string[] = optional ?? [];
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((key): key is Exclude<keyof P & string, O[number]> => !optionalKeys.includes(key)),
    properties,
  } as const;
}

/** The property names of a schema's properties, but those in `except`: the optional ones of most requests. */
export function keysOf<const P extends object, const E extends keyof P & string = never>(
  properties: P,
  { except = [] }: { except?: readonly E[] } = {},
) {
  return Object.keys(properties).filter((key): key is Exclude<keyof P & string, E> => !except.some((name) => name === key));
}
