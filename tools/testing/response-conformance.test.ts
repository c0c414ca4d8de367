import test from 'ava';
import { createResponseChecker } from './response-conformance.js';

const error = { type: 'object', required: ['error'], properties: { error: { type: 'object', required: ['code'] } } };
const checker = createResponseChecker({
  paths: {
    '/things/{thingId}': {
      get: {
        responses: {
          200: {
            content: {
              'application/json': {
                schema: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string' } } },
              },
            },
          },
          404: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/things/{thingId}/events': { get: { responses: { 200: { content: { 'text/event-stream': { schema: {} } } } } } },
    '/things/special': { get: { responses: { 204: {} } } },
    '/pages/{pageId}': {
      get: {
        responses: { 200: { content: { 'text/html': { schema: {} } } }, 404: { content: { 'text/html': { schema: {} } } } },
      },
    },
  },
  components: { schemas: { Error: error } },
});

const json = 'application/json; charset=utf-8';

test('an answer as documented passes, a query string and all', (t) => {
  t.is(checker({ method: 'GET', path: '/things/1?x=y', status: 200, contentType: json, body: { id: '1' } }), undefined);
  t.is(
    checker({ method: 'GET', path: '/things/1', status: 404, contentType: json, body: { error: { code: 'not_found' } } }),
    undefined,
  );
  t.is(
    checker({ method: 'GET', path: '/things/1/events', status: 200, contentType: 'text/event-stream', body: 'data: x' }),
    undefined,
  );
});

test('a field the schema does not allow, an undocumented status or a non-JSON body is named', (t) => {
  t.regex(
    checker({ method: 'GET', path: '/things/1', status: 200, contentType: json, body: { id: '1', watermark: 'x' } }) ?? '',
    /must NOT have additional properties/,
  );
  t.regex(
    checker({ method: 'GET', path: '/things/1', status: 409, contentType: json, body: {} }) ?? '',
    /status 409 is not documented/,
  );
  t.regex(
    checker({ method: 'GET', path: '/things/1', status: 200, contentType: 'text/plain', body: 'id' }) ?? '',
    /answered as text\/plain/,
  );
  t.regex(
    checker({ method: 'GET', path: '/things/1', status: 404, contentType: json, body: { code: 'x' } }) ?? '',
    /does not match/,
  );
});

test('a literal path wins over a parameter, and an unknown route must answer the error body', (t) => {
  t.is(checker({ method: 'GET', path: '/things/special', status: 204, contentType: null, body: undefined }), undefined);
  t.is(
    checker({ method: 'GET', path: '/nowhere', status: 404, contentType: json, body: { error: { code: 'not_found' } } }),
    undefined,
  );
  t.regex(
    checker({ method: 'GET', path: '/nowhere', status: 404, contentType: json, body: 'Not Found' }) ?? '',
    /does not match/,
  );
  t.regex(checker({ method: 'POST', path: '/nowhere', status: 200, contentType: json, body: {} }) ?? '', /not list/);
});

test('a path of pages answers another method with its error page; an API path may not', (t) => {
  const page = { status: 405, contentType: 'text/html; charset=utf-8', body: '<h1>Something went wrong</h1>' };
  t.is(checker({ method: 'POST', path: '/pages/1', ...page }), undefined);
  t.regex(checker({ method: 'POST', path: '/things/1', ...page }) ?? '', /does not match/);
  t.regex(checker({ method: 'POST', path: '/pages/1', ...page, contentType: json }) ?? '', /does not match/);
});
