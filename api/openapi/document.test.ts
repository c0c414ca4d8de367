import test from 'ava';
import { createAjv } from '#platform/json-schema.js';
import { startTestApi, type TestApi } from '#testing/api.js';

let api: TestApi;
let document: any;
test.before(async () => {
  api = await startTestApi();
  document = (await api.request('GET', '/openapi.json')).body;
});
test.after.always(() => api?.close());

const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

test('/openapi.json is an OpenAPI 3.1 document of the running API', (t) => {
  t.is(document.openapi, '3.1.0');
  t.truthy(document.info.version);
  t.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['admin', 'apiKey', 'operatorKey', 'userToken']);
  t.truthy(document.components.schemas.Error);
});

test('every route the API answers is documented, and every documented route answers', async (t) => {
  const listed = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
  for (const route of [
    'POST /admin/tenants',
    'GET /admin/tenants/{tenantId}',
    'POST /admin/tenants/{tenantId}/knowledge-bases',
    'POST /admin/tenants/{tenantId}/api-keys',
    'GET /admin/tenants/{tenantId}/api-keys',
    'PATCH /admin/tenants/{tenantId}/api-keys/{keyId}',
    'POST /admin/tenants/{tenantId}/operators',
    'PATCH /admin/tenants/{tenantId}/operators/{operatorId}',
    'POST /admin/tenants/{tenantId}/users',
    'GET /knowledge-bases/{kbId}',
    'GET /chat/config',
    'POST /chat/conversations',
    'GET /chat/conversations/{conversationId}/messages',
    'POST /chat/conversations/{conversationId}/messages',
    'POST /chat/conversations/{conversationId}/handoff',
    'GET /chat/conversations/{conversationId}/events',
    'GET /health',
    'GET /openapi.json',
  ]) {
    t.true(listed.includes(route), `${route} is documented`);
  }
  for (const { method, path } of operations()) {
    const response = await api.request(method.toUpperCase(), path.replace(/\{\w+\}/g, 'x'));
    t.not(
      response.body?.error?.message,
      `No route ${method.toUpperCase()} ${path.replace(/\{\w+\}/g, 'x')}.`,
      `${method} ${path} is routed`,
    );
    t.not(response.status, 405, `${method} ${path} accepts its method`);
  }
});

test('every schema in the document compiles, and every error response uses the error body (a page under /help)', (t) => {
  const ajv = createAjv({ strict: false });
  ajv.addSchema(document.components.schemas.Error, '#/components/schemas/Error');
  for (const { method, path, operation } of operations()) {
    const bodySchema = Object.values((operation.requestBody?.content ?? {}) as Record<string, { schema: object }>)[0]?.schema;
    if (bodySchema) t.notThrows(() => ajv.compile(bodySchema), `${method} ${path} request`);
    for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
      const schema = response.content?.['application/json']?.schema;
      if (Number(status) >= 400 && path.startsWith('/help/'))
        t.deepEqual(response.content, { 'text/html': { schema: { type: 'string' } } }, `${method} ${path} ${status}`);
      else if (Number(status) >= 400) t.deepEqual(schema, { $ref: '#/components/schemas/Error' }, `${method} ${path} ${status}`);
      else if (schema) t.notThrows(() => ajv.compile(schema), `${method} ${path} ${status}`);
    }
    for (const name of path.match(/\{(\w+)\}/g) ?? []) {
      t.true(
        operation.parameters.some((p: { in: string; name: string }) => p.in === 'path' && `{${p.name}}` === name),
        `${method} ${path} documents ${name}`,
      );
    }
  }
});

test('authenticated operations name their security and scope', (t) => {
  const byRoute = Object.fromEntries(operations().map(({ method, path, operation }) => [`${method} ${path}`, operation]));
  t.deepEqual(byRoute['get /knowledge-bases/{kbId}'].security, [{ apiKey: ['iq:read'] }]);
  t.deepEqual(byRoute['post /admin/tenants'].security, [{ admin: [] }]);
  t.deepEqual(byRoute['get /health'].security, []);
  t.deepEqual(byRoute['post /chat/conversations'].security, [{ operatorKey: [] }]);
  const stream = byRoute['post /chat/conversations/{conversationId}/messages'];
  t.truthy(stream.responses[200].content['text/event-stream'].schema.description);
  t.true(stream.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'x-visitor-token'));
});
