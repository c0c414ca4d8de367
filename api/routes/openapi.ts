import { DocumentedRouter, type Operation } from '../openapi/documented-router.js';
import { buildOpenApiDocument } from '../openapi/document.js';

/** Serves the OpenAPI 3.1 document of every router passed in, this route included. */
export function createOpenApiRouter(
  routers: Array<{ operations: Operation[] }>,
  info: { version: string; serverUrl: string; webhooks?: Record<string, object> },
) {
  const router = new DocumentedRouter({ tags: ['Documentation'], security: 'none', errors: [] });
  let document: object | undefined;
  router.get('/openapi.json', { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } }, (ctx) => {
    document ??= buildOpenApiDocument(
      [...routers, router].flatMap((r) => r.operations),
      info,
    );
    ctx.body = document;
  });
  return router;
}
