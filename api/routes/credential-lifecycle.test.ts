import test from 'ava';
import { createTenancy } from '#tenancy/index.js';
import { createTenant, startTestApi, type TestApi } from '#testing/api.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { createdUserResponse, operatorResponse, userResponse } from '../schemas/admin.js';

/*
 * F12: user tokens expire, can be revoked and rotated; operator keys can be rotated (the old key
 * keeps working for a grace period) and operators disabled. Clocks are injected through a tenancy
 * on the same Redis, so nothing here waits for time to pass.
 */

let api: TestApi;
test.before(async () => {
  api = await startTestApi({ USER_TOKEN_LIFETIME_DAYS: '7', OPERATOR_KEY_GRACE_HOURS: '24' });
});
test.after.always(() => api?.close());

const day = 24 * 3600 * 1000;

/** The same records as the API's, written as if it were `at`. */
const tenancyAt = (at: Date) =>
  createTenancy(api.redis, api.config.redis.prefix, { now: () => at, credentials: api.config.credentials });

const asUser = (token: string) => api.request('GET', '/agent/conversations', { headers: { authorization: `Bearer ${token}` } });

const asWidget = (operatorKey: string) => api.request('GET', '/chat/config', { headers: { 'x-operator-key': operatorKey } });

async function userOf(tenantId: string, role = 'agent') {
  const created = await api.admin('POST', `/admin/tenants/${tenantId}/users`, {
    name: 'Ada',
    email: `ada-${Math.random().toString(36).slice(2)}@example.com`,
    role,
  });
  return created.body as { id: string; token: string; tokenExpiresAt: string; createdAt: string };
}

test('a user token works for the configured lifetime, then is refused as key_expired', async (t) => {
  const tenant = await createTenant(api);
  const user = await userOf(tenant.id);
  t.is(Date.parse(user.tokenExpiresAt) - Date.parse(user.createdAt), 7 * day, 'USER_TOKEN_LIFETIME_DAYS');
  t.is((await asUser(user.token)).status, 200);

  // Issued eight days ago, with a lifetime of seven.
  const { token } = await tenancyAt(new Date(Date.now() - 8 * day)).createUser(tenant.id, {
    name: 'Old',
    email: 'old@example.com',
    role: 'agent',
  });
  const expired = await asUser(token);
  t.is(expired.status, 403);
  t.is(expired.body.error.code, 'key_expired');
  t.regex(expired.body.error.message, /user token has expired/);
});

test('a user stored before tokens expired gets one lifetime from its creation', async (t) => {
  const tenant = await createTenant(api);
  const { user, token } = await tenancyAt(new Date(Date.now() - 8 * day)).createUser(tenant.id, {
    name: 'Legacy',
    email: 'legacy@example.com',
    role: 'admin',
  });
  await api.redis.hDel(`${api.config.redis.prefix}:user:${user.id}`, ['tokenExpiresAt', 'active']);
  t.is((await asUser(token)).body.error.code, 'key_expired');
  const listed = (await api.admin('GET', `/admin/tenants/${tenant.id}/users`)).body.users[0];
  t.like(listed, { active: true, tokenExpiresAt: new Date(Date.parse(user.createdAt) + 7 * day).toISOString() });
});

test('PATCH /admin/tenants/{id}/users/{userId} deactivates a user at once, and reactivates', async (t) => {
  const tenant = await createTenant(api);
  const user = await userOf(tenant.id);

  const deactivated = await api.admin('PATCH', `/admin/tenants/${tenant.id}/users/${user.id}`, { active: false });
  t.is(deactivated.status, 200);
  assertMatchesSchema(t, userResponse, deactivated.body);
  t.false(deactivated.body.active);
  t.is(deactivated.body.token, undefined);
  const refused = await asUser(user.token);
  t.is(refused.status, 401);
  t.regex(refused.body.error.message, /deactivated/);

  const reactivated = await api.admin('PATCH', `/admin/tenants/${tenant.id}/users/${user.id}`, { active: true });
  t.true(reactivated.body.active);
  t.is((await asUser(user.token)).status, 200);

  t.is((await api.admin('PATCH', `/admin/tenants/${tenant.id}/users/${user.id}`, {})).status, 400);
  const other = await createTenant(api, 'Other');
  t.is((await api.admin('PATCH', `/admin/tenants/${other.id}/users/${user.id}`, { active: false })).status, 404);
  t.is((await api.admin('PATCH', `/admin/tenants/${tenant.id}/users/nope`, { active: false })).status, 404);
  t.is((await asUser(user.token)).status, 200, 'nothing changed by the refused requests');
});

test('rotating a user token gives a new one with a new lifetime; the old one stops at once', async (t) => {
  const tenant = await createTenant(api);
  const old = await tenancyAt(new Date(Date.now() - 8 * day)).createUser(tenant.id, {
    name: 'Grace',
    email: 'grace@example.com',
    role: 'admin',
  });
  t.is((await asUser(old.token)).body.error.code, 'key_expired');

  const rotated = await api.admin('POST', `/admin/tenants/${tenant.id}/users/${old.user.id}/token`);
  t.is(rotated.status, 201);
  assertMatchesSchema(t, createdUserResponse, rotated.body);
  t.regex(rotated.body.token, /^kb_ut_/);
  t.true(Date.parse(rotated.body.tokenExpiresAt) > Date.now() + 6 * day);
  t.is((await asUser(rotated.body.token)).status, 200);
  const refused = await asUser(old.token);
  t.is(refused.status, 401, 'the old token is unknown now, not merely expired');

  const listed = (await api.admin('GET', `/admin/tenants/${tenant.id}/users`)).body.users;
  t.false(JSON.stringify(listed).includes(rotated.body.token));
  const other = await createTenant(api, 'Other');
  t.is((await api.admin('POST', `/admin/tenants/${other.id}/users/${old.user.id}/token`)).status, 404);
});

test("rotating an operator's key keeps the old key for the grace period; a second rotation ends it", async (t) => {
  const tenant = await createTenant(api);
  const operator = (await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Bot' })).body;
  t.like(operator, { active: true, previousKeyExpiresAt: null });

  const first = await api.admin('POST', `/admin/tenants/${tenant.id}/operators/${operator.id}/key`);
  t.is(first.status, 201);
  assertMatchesSchema(t, operatorResponse, first.body);
  t.not(first.body.operatorKey, operator.operatorKey);
  t.is(Date.parse(first.body.previousKeyExpiresAt) - Date.parse(first.body.updatedAt), day, 'OPERATOR_KEY_GRACE_HOURS');
  t.is((await asWidget(first.body.operatorKey)).status, 200);
  t.is((await asWidget(operator.operatorKey)).status, 200, 'the old key works during the grace period');

  const second = await api.admin('POST', `/admin/tenants/${tenant.id}/operators/${operator.id}/key`);
  t.is((await asWidget(operator.operatorKey)).status, 403, 'the key of an earlier rotation stops at once');
  t.is((await asWidget(first.body.operatorKey)).status, 200);
  t.is((await asWidget(second.body.operatorKey)).status, 200);
  const list = (await api.admin('GET', `/admin/tenants/${tenant.id}/operators`)).body.operators;
  t.deepEqual(list, [second.body]);
});

test('after the grace period the old operator key is refused', async (t) => {
  const tenant = await createTenant(api);
  const operator = (await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Bot' })).body;
  // Rotated 25 hours ago, with 24 hours of grace.
  const records = tenancyAt(new Date(Date.now() - 25 * 3600 * 1000));
  const rotated = await records.rotateOperatorKey((await records.getOperator(operator.id))!);

  const refused = await asWidget(operator.operatorKey);
  t.is(refused.status, 403);
  t.is(refused.body.error.code, 'forbidden');
  t.is((await asWidget(rotated.operatorKey)).status, 200);
});

test('a disabled operator is refused until it is enabled again', async (t) => {
  const tenant = await createTenant(api);
  const operator = (await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Bot' })).body;
  const disabled = await api.admin('PATCH', `/admin/tenants/${tenant.id}/operators/${operator.id}`, { active: false });
  t.is(disabled.status, 200);
  t.false(disabled.body.active);
  const refused = await asWidget(operator.operatorKey);
  t.is(refused.status, 403);
  t.regex(refused.body.error.message, /disabled/);

  await api.admin('PATCH', `/admin/tenants/${tenant.id}/operators/${operator.id}`, { active: true });
  t.is((await asWidget(operator.operatorKey)).status, 200);
});
