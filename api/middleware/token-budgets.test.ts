/**
 * The budgets of the routes behind a bearer token: /admin per client address, the dashboard-area
 * routes per user, and refused tokens per address, so that neither token can be guessed quickly.
 */
import test from 'ava';
import { createTenant, startTestApi, type TestApi } from '#testing/api.js';

let api: TestApi;
test.before(async () => {
  api = await startTestApi({
    TRUSTED_PROXY_HOPS: '1',
    ADMIN_PER_MINUTE: '20',
    USER_PER_MINUTE: '3',
    REFUSED_TOKENS_PER_MINUTE: '3',
  });
});
test.after.always(() => api?.close());

// The tests of this file run at once, on one API: each uses addresses of its own.
let addresses = 0;
const someAddress = () => `203.0.113.${++addresses}`;

const bearer = (token: string, address: string) => ({ authorization: `Bearer ${token}`, 'x-forwarded-for': address });

async function userOf(tenantId: string, role: 'admin' | 'agent') {
  const response = await api.admin('POST', `/admin/tenants/${tenantId}/users`, {
    name: role,
    email: `${role}-${Math.random().toString(36).slice(2)}@example.com`,
    role,
  });
  return response.body.token as string;
}

test('/admin is budgeted per client address, and past it answers 429 with Retry-After', async (t) => {
  const tenant = await createTenant(api);
  const address = someAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 21; i++) {
    statuses.push((await api.request('GET', `/admin/tenants/${tenant.id}`, { headers: bearer(api.adminToken, address) })).status);
  }
  t.deepEqual(statuses, [...Array<number>(20).fill(200), 429]);
  const refused = await api.request('GET', `/admin/tenants/${tenant.id}`, { headers: bearer(api.adminToken, address) });
  t.is(refused.body.error.code, 'rate_limited');
  t.truthy(refused.headers.get('retry-after'));
  t.is((await api.request('GET', `/admin/tenants/${tenant.id}`, { headers: bearer(api.adminToken, someAddress()) })).status, 200);
});

test('wrong admin tokens count: past a few, the address is refused even with the right token', async (t) => {
  const tenant = await createTenant(api);
  const guesser = someAddress();
  const path = `/admin/tenants/${tenant.id}`;
  for (let i = 0; i < 3; i++) {
    t.is((await api.request('GET', path, { headers: bearer(`adm_guess_${i}`, guesser) })).status, 401);
  }
  const locked = await api.request('GET', path, { headers: bearer(api.adminToken, guesser) });
  t.is(locked.status, 429);
  t.is(locked.body.error.code, 'rate_limited');
  t.truthy(locked.headers.get('retry-after'));
  t.is((await api.request('GET', path, { headers: bearer('adm_guess_4', guesser) })).status, 429, 'no further guess is tried');
  t.is((await api.request('GET', path, { headers: bearer(api.adminToken, someAddress()) })).status, 200, 'other addresses go on');
});

test('each user has a budget on the agent, integrations and connectors routes together', async (t) => {
  const tenant = await createTenant(api);
  const [admin, colleague] = [await userOf(tenant.id, 'admin'), await userOf(tenant.id, 'admin')];
  const address = someAddress();
  const statuses = [
    (await api.request('GET', '/agent/conversations', { headers: bearer(admin, address) })).status,
    (await api.request('GET', '/connectors', { headers: bearer(admin, address) })).status,
    (
      await api.request('GET', '/integrations/app-connections/00000000-0000-4000-8000-000000000000/webhook-info', {
        headers: bearer(admin, address),
      })
    ).status,
  ];
  t.deepEqual(statuses, [200, 200, 404]);
  const refused = await api.request('GET', '/agent/conversations', { headers: bearer(admin, address) });
  t.is(refused.status, 429);
  t.is(refused.body.error.code, 'rate_limited');
  t.regex(refused.body.error.message, /this user/);
  t.truthy(refused.headers.get('retry-after'));
  t.is(
    (await api.request('GET', '/connectors', { headers: bearer(colleague, address) })).status,
    200,
    'a colleague has their own',
  );
});

test('wrong user tokens count per address like wrong admin tokens', async (t) => {
  const tenant = await createTenant(api);
  const agent = await userOf(tenant.id, 'agent');
  const guesser = someAddress();
  for (let i = 0; i < 3; i++) {
    t.is((await api.request('GET', '/agent/conversations', { headers: bearer(`guess-${i}`, guesser) })).status, 401);
  }
  t.is((await api.request('GET', '/agent/conversations', { headers: bearer(agent, guesser) })).status, 429);
  // A known user without the role is no guess at a token: it does not count.
  const elsewhere = someAddress();
  for (let i = 0; i < 3; i++) t.is((await api.request('GET', '/connectors', { headers: bearer(agent, elsewhere) })).status, 403);
  const admin = await userOf(tenant.id, 'admin');
  t.is((await api.request('GET', '/connectors', { headers: bearer(admin, elsewhere) })).status, 200);
});

test('without trusted proxies, X-Forwarded-For is not read: a client cannot pick a new address per request', async (t) => {
  const direct = await startTestApi({ REFUSED_TOKENS_PER_MINUTE: '2' });
  t.teardown(() => direct.close());
  const statuses: number[] = [];
  for (let i = 1; i <= 3; i++) {
    statuses.push((await direct.request('GET', '/admin/tenants/x', { headers: bearer('adm_wrong', `192.0.2.${i}`) })).status);
  }
  t.deepEqual(statuses, [401, 401, 429]);
});
