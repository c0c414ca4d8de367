import { STATUS_CODES } from 'node:http';
import { errorBody } from '../schemas/common.js';
import type { Operation } from './documented-router.js';

const securitySchemes = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'A tenant API key; its scopes are listed per operation.',
  },
  admin: { type: 'http', scheme: 'bearer', description: 'The platform admin token (ADMIN_TOKEN).' },
  userToken: { type: 'http', scheme: 'bearer', description: "A tenant user's token." },
  operatorKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-operator-key',
    description:
      "An operator's public key (`op_…`), as the widget sends it. The request's `Origin` must match one of the operator's allowed domains (any origin when it lists none); otherwise 403.",
  },
};

/** The OpenAPI 3.1 document of exactly the routes that are registered. */
export function buildOpenApiDocument(
  operations: Operation[],
  info: { version: string; serverUrl: string; webhooks?: Record<string, object> },
) {
  const paths: Record<string, Record<string, object>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method] = describe(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Knowledge-base chat assistant API',
      version: info.version,
      description:
        'Every failure answers `{"error": {"code", "message", "details?"}}`. Timestamps are ISO 8601 UTC with milliseconds. ' +
        'Retry 429, 500, 502 and 503 with backoff (1 s doubling, capped at 30 s, plus up to 1 s of jitter); 429 carries `Retry-After`.',
    },
    servers: [{ url: info.serverUrl }],
    paths,
    // What the service sends to tenants' endpoints (OpenAPI 3.1): the outbound events.
    ...(info.webhooks ? { webhooks: info.webhooks } : {}),
    components: { securitySchemes, schemas: { Error: errorBody } },
  };
}

function describe(operation: Operation): object {
  const pathParameters = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = operation.query as { properties?: Record<string, { description?: string }>; required?: string[] } | undefined;
  const queryParameters = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    ...(schema.description ? { description: schema.description } : {}),
    schema,
  }));
  const headerParameters = (operation.headers ?? []).map(({ name, required, description }) => ({
    name,
    in: 'header',
    required,
    description,
    schema: { type: 'string' },
  }));
  const responses: Record<string, object> = {};
  for (const [status, { description, schema, contentType }] of Object.entries(operation.responses)) {
    responses[status] = { description, ...(schema ? { content: { [contentType ?? 'application/json']: { schema } } } : {}) };
  }
  const errorContent = operation.errorPages
    ? { 'text/html': { schema: { type: 'string' } } }
    : { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  for (const status of operation.errors) {
    responses[status] = { description: STATUS_CODES[status] ?? 'Error', content: errorContent };
  }
  return {
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: operation.tags,
    security: operation.security === 'none' ? [] : [{ [operation.security]: operation.scope ? [operation.scope] : [] }],
    parameters: [...pathParameters, ...queryParameters, ...headerParameters],
    ...(operation.body
      ? {
          requestBody: {
            required: !operation.bodyOptional,
            content: {
              [mediaTypes[operation.bodyType ?? 'json']]: {
                schema: operation.body,
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The media type of each kind of request body. */
const mediaTypes = { json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' } as const;
