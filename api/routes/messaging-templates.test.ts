import test from 'ava';
import { createUser, startTestApi, type TestApi } from '#testing/api.js';
import { startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { messagingTenant } from '#testing/messaging-tenant.js';

/*
 * Registering the business's approved templates on a connection: validated as the platform names
 * them, per connection, admins only, and invisible to every other tenant.
 */

let api: TestApi;
let platform: FakeMessagingPlatform;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  api = await startTestApi({ GRAPH_API_BASE_URL: platform.url });
});
test.after.always(async () => {
  await api?.close();
  await platform?.close();
});

const orderUpdate = {
  name: 'order_update',
  language: 'en_US',
  category: 'utility',
  body: 'Hello {{1}}, your order {{2}} has shipped. Track it: {{2}}',
};

async function connected() {
  const tenant = await messagingTenant(api, platform);
  const admin = await createUser(api, tenant.tenant.tenant.id, 'admin');
  const path = `/integrations/app-connections/${tenant.connectionId}/templates`;
  return {
    ...tenant,
    path,
    register: (body: object) => api.request('POST', path, { headers: admin.headers, body }),
    list: () => api.request('GET', path, { headers: admin.headers }),
    remove: (name: string, language: string) => api.request('DELETE', `${path}/${name}/${language}`, { headers: admin.headers }),
    admin,
  };
}

test('an admin registers, lists and removes templates; the parameter count comes from the body', async (t) => {
  const c = await connected();
  const created = await c.register(orderUpdate);
  t.is(created.status, 201);
  t.like(created.body, { ...orderUpdate, bodyParameters: 2 });
  t.is((await c.register({ ...orderUpdate, language: 'de' })).status, 201, 'another language of the same name');
  t.is((await c.register({ name: 'welcome', language: 'en', category: 'marketing', body: 'Welcome back!' })).status, 201);

  const listed = await c.list();
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.templates.map((template: any) => [template.name, template.language, template.bodyParameters]),
    [
      ['order_update', 'de', 2],
      ['order_update', 'en_US', 2],
      ['welcome', 'en', 0],
    ],
  );

  const again = await c.register(orderUpdate);
  t.is(again.status, 409);
  t.is(again.body.error.code, 'conflict');

  t.is((await c.remove('order_update', 'de')).status, 204);
  const gone = await c.remove('order_update', 'de');
  t.is(gone.status, 404);
  t.is(gone.body.error.code, 'not_found');
  t.is((await c.list()).body.templates.length, 2);
});

test('names, languages, categories and bodies are checked as the platform would', async (t) => {
  const c = await connected();
  const refused = async (body: object, path: string) => {
    const answer = await c.register(body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.is(answer.body.error.code, 'invalid_payload');
    t.true(
      answer.body.error.details.some((detail: { path: string }) => detail.path === path),
      JSON.stringify(answer.body.error.details),
    );
  };
  await refused({ ...orderUpdate, name: 'Order-Update' }, '/name');
  await refused({ ...orderUpdate, name: 'order update' }, '/name');
  await refused({ ...orderUpdate, language: 'en-US' }, '/language');
  await refused({ ...orderUpdate, language: 'english' }, '/language');
  await refused({ ...orderUpdate, category: 'service' }, '/category');
  await refused({ ...orderUpdate, body: '   ' }, '/body');
  await refused({ ...orderUpdate, body: 'Hello {{1}}, see {{3}}' }, '/body');
  await refused({ ...orderUpdate, body: 'Hello {{name}}' }, '/body');
  await refused({ ...orderUpdate, body: 'x'.repeat(1025) }, '/body');
  const { body: _body, ...withoutBody } = orderUpdate;
  await refused(withoutBody, '/body');
  t.is((await c.list()).body.templates.length, 0);
});

test("another tenant neither sees nor changes a connection's templates; agents cannot register", async (t) => {
  const c = await connected();
  const other = await connected();
  t.is((await c.register(orderUpdate)).status, 201);

  const asOther = (method: string, path: string, body?: object) =>
    api.request(method, path, { headers: other.admin.headers, ...(body ? { body } : {}) });
  t.is((await asOther('GET', c.path)).status, 403);
  t.is((await asOther('POST', c.path, { ...orderUpdate, name: 'planted' })).status, 403);
  t.is((await asOther('DELETE', `${c.path}/order_update/en_US`)).status, 403);
  t.deepEqual((await other.list()).body.templates, [], "the other tenant's own connection holds none of them");

  const agent = await createUser(api, c.tenant.tenant.id, 'agent');
  t.is((await api.request('POST', c.path, { headers: agent.headers, body: { ...orderUpdate, name: 'by_agent' } })).status, 403);
  t.is((await api.request('GET', c.path, { headers: c.admin.headers })).body.templates.length, 1);
  t.is(
    (
      await api.request('GET', '/integrations/app-connections/00000000-0000-4000-8000-000000000000/templates', {
        headers: c.admin.headers,
      })
    ).status,
    404,
  );
});

test('removing a connection removes its templates', async (t) => {
  const c = await connected();
  t.is((await c.register(orderUpdate)).status, 201);
  const key = `${api.config.redis.prefix}:messaging-connection:${c.connectionId}:templates`;
  t.is(await api.redis.exists(key), 1);
  t.is(
    (await api.request('DELETE', `/integrations/app-connections/${c.connectionId}`, { headers: c.admin.headers })).status,
    204,
  );
  t.is(await api.redis.exists(key), 0);
  t.is((await c.list()).status, 404);
});
