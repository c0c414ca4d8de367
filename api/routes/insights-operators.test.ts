import test from 'ava';
import { createTenant, createUser, startTestApi, type TestApi } from '#testing/api.js';

let api: TestApi;
test.before(async () => {
  api = await startTestApi();
});
test.after.always(() => api?.close());

test("an admin lists their own tenant's operators, names and ids only; agents and strangers are refused", async (t) => {
  const shop = await createTenant(api, 'Shop');
  const other = await createTenant(api, 'Other');
  const admin = await createUser(api, shop.id, 'admin');
  const agent = await createUser(api, shop.id, 'agent');
  const first = (await api.admin('POST', `/admin/tenants/${shop.id}/operators`, { name: 'Assistant' })).body;
  const second = (await api.admin('POST', `/admin/tenants/${shop.id}/operators`, { name: 'Helpdesk' })).body;
  await api.admin('POST', `/admin/tenants/${other.id}/operators`, { name: 'Not yours' });

  const listed = await api.request('GET', '/insights/operators', { headers: admin.headers });
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.operators,
    [first, second].map(({ id, name, knowledgeBaseId }) => ({ id, name, knowledgeBaseId, active: true })),
  );
  t.false(JSON.stringify(listed.body).includes(first.operatorKey), 'no operator key in the list');

  const refused = await api.request('GET', '/insights/operators', { headers: agent.headers });
  t.is(refused.status, 403);
  t.is(refused.body.error.code, 'forbidden');
  t.is((await api.request('GET', '/insights/operators')).status, 401);
});
