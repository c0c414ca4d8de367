import type { AddressInfo } from 'node:net';
import test from 'ava';
import Koa from 'koa';
import { BudgetRefusal, rateLimited, unauthorized, type AppError } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { errorHandler } from './error-handler.js';
import { httpMetrics } from './http-metrics.js';

/*
 * What the HTTP metrics label a request with: the route's template, never its path, whichever way
 * the request ends (answered, refused by the router's authentication, another method, no route).
 */

async function appAnswering() {
  const answered: Array<{ method: string; route: string; status: number }> = [];
  const errors: AppError[] = [];
  const router = new DocumentedRouter({ tags: ['Things'], security: 'none', errors: [] });
  router.use((ctx, next) => {
    if (!ctx.get('authorization')) throw unauthorized('Who are you?');
    return next();
  });
  router.get('/things/{thingId}', { summary: 'A thing', responses: { 200: { description: 'it' } } }, (ctx) => {
    ctx.body = { id: ctx.params.thingId };
  });
  router.get('/busy', { summary: 'Busy', responses: { 200: { description: 'never' } } }, () => {
    throw rateLimited(3, 'this visitor', 'visitor');
  });
  const app = new Koa();
  app.use(httpMetrics({ answered: (request) => answered.push(request) }));
  app.use(errorHandler((error) => errors.push(error)));
  for (const middleware of router.middleware()) app.use(middleware);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, answered, errors, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('requests are labelled by route template and final status', async (t) => {
  const app = await appAnswering();
  t.teardown(app.close);
  const auth = { authorization: 'Bearer x' };
  await fetch(`${app.url}/things/th_123`, { headers: auth });
  await fetch(`${app.url}/things/th_456`);
  await fetch(`${app.url}/things/th_789`, { method: 'DELETE', headers: auth });
  await fetch(`${app.url}/nothing/here`, { headers: auth });
  t.deepEqual(app.answered, [
    { method: 'GET', route: '/things/{thingId}', status: 200 },
    { method: 'GET', route: '/things/{thingId}', status: 401 },
    { method: 'DELETE', route: '/things/{thingId}', status: 405 },
    { method: 'GET', route: 'unmatched', status: 404 },
  ]);
});

test('a refusal for a budget names the budget to the error observer, not to the client', async (t) => {
  const app = await appAnswering();
  t.teardown(app.close);
  const response = await fetch(`${app.url}/busy`, { headers: { authorization: 'Bearer x' } });
  t.is(response.status, 429);
  t.deepEqual(Object.keys(((await response.json()) as { error: object }).error).sort(), ['code', 'message']);
  const [refusal] = app.errors;
  t.true(refusal instanceof BudgetRefusal);
  t.is((refusal as BudgetRefusal).budget, 'visitor');
});
