import { randomBytes, randomInt } from 'node:crypto';
import test from 'ava';
import { createTenant, createTenantWithKey, everythingStored, startTestApi, type TestApi } from '#testing/api.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '../schemas/common.js';
import { credentialResponse, webhookInfoResponse } from '../schemas/messaging-connections.js';
import { captureLogLines } from '#testing/log-capture.js';

/** Every log line the API writes, to check that no secret ever reaches it. */
const { lines: logLines, sink: logSink } = captureLogLines();

let api: TestApi;
test.before(async () => {
  api = await startTestApi({}, logSink);
});
test.after.always(() => api?.close());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A tenant with an operator, an admin and an agent. */
async function newTenant(target: TestApi = api, { withOperator = true } = {}) {
  const tenant = await createTenant(target, 'Shop');
  const operator = withOperator
    ? (await target.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Shop assistant' })).body
    : undefined;
  const user = (role: string) =>
    target.admin('POST', `/admin/tenants/${tenant.id}/users`, { name: role, email: `${role}@shop.example`, role });
  const admin = (await user('admin')).body;
  const agent = (await user('agent')).body;
  return { tenant, operator, admin: bearer(admin.token), agent: bearer(agent.token) };
}

const phoneNumberId = () => String(randomInt(100_000_000_000, 999_999_999_999));

function credential(data: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) {
  return {
    type: 'messaging_api',
    name: 'Shop number',
    data: {
      accessToken: `EAAG${randomBytes(48).toString('base64url')}`,
      businessAccountId: '102938475610293',
      phoneNumberId: phoneNumberId(),
      phoneNumber: '+4915123456789',
      apiVersion: 'v23.0',
      appSecret: randomBytes(16).toString('hex'),
      ...data,
    },
    ...fields,
  };
}

async function connect(headers: Record<string, string>, body = credential(), target: TestApi = api) {
  return target.request('POST', '/integrations/credentials', { body, headers });
}

const webhookInfo = (connectionId: string, headers: Record<string, string>, target: TestApi = api) =>
  target.request('GET', `/integrations/app-connections/${connectionId}/webhook-info`, { headers });

test('an admin connects a number: 201 with the credential and its connection, never a secret', async (t) => {
  const { operator, admin } = await newTenant();
  const body = credential();
  const response = await connect(admin, body);
  t.is(response.status, 201);
  assertMatchesSchema(t, credentialResponse, response.body);
  t.regex(response.body.id, uuid);
  t.regex(response.body.connectionId, uuid);
  t.not(response.body.id, response.body.connectionId);
  t.is(response.body.operatorId, operator.id, "the tenant's first operator answers by default");
  t.deepEqual(response.body, {
    id: response.body.id,
    type: 'messaging_api',
    name: 'Shop number',
    connectionId: response.body.connectionId,
    operatorId: operator.id,
    data: {
      businessAccountId: body.data.businessAccountId,
      phoneNumberId: body.data.phoneNumberId,
      phoneNumber: body.data.phoneNumber,
      apiVersion: body.data.apiVersion,
      hasAppSecret: true,
      developmentMode: false,
    },
  });

  const info = await webhookInfo(response.body.connectionId, admin);
  const text = JSON.stringify(response.body);
  for (const secret of [body.data.accessToken, body.data.appSecret, info.body.verifyToken]) t.false(text.includes(secret));
});

test('the operator may be named; another tenant’s is 403, an unknown one 404, none at all 400', async (t) => {
  const { admin } = await newTenant();
  const second = (await api.admin('POST', `/admin/tenants/${(await tenantOf(admin)).id}/operators`, { name: 'Second' })).body;
  const named = await connect(admin, credential({}, { operatorId: second.id }));
  t.is(named.status, 201);
  t.is(named.body.operatorId, second.id);

  const other = await newTenant();
  const foreign = await connect(admin, credential({}, { operatorId: other.operator.id }));
  t.is(foreign.status, 403);
  t.is(foreign.body.error.code, 'forbidden');

  const unknown = await connect(admin, credential({}, { operatorId: '00000000-0000-4000-8000-000000000000' }));
  t.is(unknown.status, 404);
  t.is(unknown.body.error.code, 'not_found');

  const bare = await newTenant(api, { withOperator: false });
  const none = await connect(bare.admin, credential());
  t.is(none.status, 400);
  t.is(none.body.error.code, 'invalid_payload');
  t.regex(none.body.error.message, /no AI operator/);
  t.deepEqual(
    none.body.error.details.map((d: { path: string }) => d.path),
    ['/operatorId'],
  );
});

async function tenantOf(headers: Record<string, string>) {
  const user = await api.tenancy.findUserByToken(headers.authorization!.slice('Bearer '.length));
  return { id: user!.tenantId };
}

const invalidBodies: Array<[string, Record<string, unknown>, string]> = [
  ['a phone number with spaces', credential({ phoneNumber: '+49 151 23456789' }), '/data/phoneNumber'],
  ['a phone number with dashes', credential({ phoneNumber: '+49-151-23456789' }), '/data/phoneNumber'],
  ['a phone number with parentheses', credential({ phoneNumber: '+1(555)0100123' }), '/data/phoneNumber'],
  ['a phone number without +', credential({ phoneNumber: '4915123456789' }), '/data/phoneNumber'],
  ['an API version without v', credential({ apiVersion: '25.0' }), '/data/apiVersion'],
  ['an API version without minor', credential({ apiVersion: 'v25' }), '/data/apiVersion'],
  ['no business account id', credential({ businessAccountId: undefined }), '/data/businessAccountId'],
  ['no phone number id', credential({ phoneNumberId: undefined }), '/data/phoneNumberId'],
  ['a phone number id that is a path', credential({ phoneNumberId: '../me' }), '/data/phoneNumberId'],
  ['no access token', credential({ accessToken: undefined }), '/data/accessToken'],
  ['an access token with a line break', credential({ accessToken: 'EAAG\r\nX-Evil: 1' }), '/data/accessToken'],
  ['an empty app secret', credential({ appSecret: '' }), '/data/appSecret'],
  ['development mode that is not a boolean', credential({ developmentMode: 'yes' }), '/data/developmentMode'],
  ['another type', credential({}, { type: 'whatsapp' }), '/type'],
  ['no type', credential({}, { type: undefined }), '/type'],
  ['no name', credential({}, { name: undefined }), '/name'],
  ['an empty name', credential({}, { name: '' }), '/name'],
  ['no data', { type: 'messaging_api', name: 'Shop number' }, '/data'],
  ['an operator id that is no UUID', credential({}, { operatorId: 'first' }), '/operatorId'],
  ['an unknown field', credential({}, { webhookPath: 'mine' }), '/webhookPath'],
  ['an unknown data field', credential({ verifyToken: 'mine' }), '/data/verifyToken'],
];

for (const [what, body, path] of invalidBodies) {
  test(`a credential with ${what} is 400 naming ${path}`, async (t) => {
    const { admin } = await newTenant();
    const response = await connect(admin, body as ReturnType<typeof credential>);
    t.is(response.status, 400);
    assertMatchesSchema(t, errorBody, response.body);
    t.is(response.body.error.code, 'invalid_payload');
    t.true(
      response.body.error.details.some((detail: { path: string }) => detail.path === path),
      JSON.stringify(response.body.error.details),
    );
    const secret = (body.data as Record<string, unknown> | undefined)?.accessToken;
    if (typeof secret === 'string') t.false(JSON.stringify(response.body).includes(secret));
  });
}

test('without a valid user token both routes are 401; an agent is 403', async (t) => {
  const { admin, agent } = await newTenant();
  const created = await connect(admin);
  const { key } = await createTenantWithKey(api, ['iq:read']);
  const unauthenticated: Array<Record<string, string>> = [
    {},
    bearer('kb_ut_nope'),
    { authorization: 'Basic abc' },
    bearer(api.adminToken),
    { 'x-api-key': key.key },
  ];
  for (const headers of unauthenticated) {
    for (const response of [await connect(headers), await webhookInfo(created.body.connectionId, headers)]) {
      t.is(response.status, 401, JSON.stringify(headers));
      assertMatchesSchema(t, errorBody, response.body);
      t.is(response.body.error.code, 'unauthorized');
    }
  }
  for (const response of [await connect(agent), await webhookInfo(created.body.connectionId, agent)]) {
    t.is(response.status, 403);
    t.is(response.body.error.code, 'forbidden');
  }
});

test('webhook-info gives the random callback URL and the verify token', async (t) => {
  const { admin } = await newTenant();
  const body = credential();
  const { connectionId } = (await connect(admin, body)).body;
  const response = await webhookInfo(connectionId, admin);
  t.is(response.status, 200);
  assertMatchesSchema(t, webhookInfoResponse, response.body);
  const { webhookUrl, webhookPath, verifyToken } = response.body;
  t.regex(webhookPath, /^[A-Za-z0-9_-]{22,}$/);
  t.true(Buffer.from(webhookPath, 'base64url').length * 8 >= 128);
  t.is(webhookUrl, `${api.config.publicBaseUrl}/webhooks/messaging_api/${webhookPath}`);
  for (const part of [body.data.phoneNumberId, body.data.businessAccountId, connectionId]) t.false(webhookPath.includes(part));
  t.regex(verifyToken, /^[A-Za-z0-9_-]{43}$/);

  t.deepEqual((await webhookInfo(connectionId, admin)).body, response.body, 'the same on every read');
  const another = (await webhookInfo((await connect(admin)).body.connectionId, admin)).body;
  t.not(another.webhookPath, webhookPath);
  t.not(another.verifyToken, verifyToken);
});

test("webhook-info of another tenant's connection is 403; of an unknown or malformed id 404", async (t) => {
  const owner = await newTenant();
  const stranger = await newTenant();
  const { connectionId } = (await connect(owner.admin)).body;

  const foreign = await webhookInfo(connectionId, stranger.admin);
  t.is(foreign.status, 403);
  t.is(foreign.body.error.code, 'forbidden');
  t.false(JSON.stringify(foreign.body).includes('webhooks/'));

  for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '..%2F..%2Fadmin']) {
    const missing = await webhookInfo(id, owner.admin);
    t.is(missing.status, 404, id);
    assertMatchesSchema(t, errorBody, missing.body);
    t.is(missing.body.error.code, 'not_found');
  }
});

test("one number has one connection within a tenant (409); another tenant's claim of it locks no one out", async (t) => {
  const squatter = await newTenant();
  const owner = await newTenant();
  const body = credential();
  t.is((await connect(squatter.admin, body)).status, 201, 'a tenant types in a number it does not own');
  t.is((await connect(owner.admin, credential({ phoneNumberId: body.data.phoneNumberId }))).status, 201);
  const again = await connect(owner.admin, credential({ phoneNumberId: body.data.phoneNumberId }));
  t.is(again.status, 409);
  assertMatchesSchema(t, errorBody, again.body);
  t.is(again.body.error.code, 'conflict');
});

test('an admin removes a connection: its webhook answers 404 and the number connects again', async (t) => {
  const { admin, agent } = await newTenant();
  const other = await newTenant();
  const body = credential();
  const created = (await connect(admin, body)).body;
  const info = (await webhookInfo(created.connectionId, admin)).body;
  const path = `/app-connections/${created.connectionId}`;

  t.is((await api.request('DELETE', `/integrations${path}`, { headers: agent })).status, 403, 'agents do not');
  t.is((await api.request('DELETE', `/integrations${path}`, { headers: other.admin })).status, 403, "another tenant's");
  const removed = await api.request('DELETE', `/integrations${path}`, { headers: admin });
  t.is(removed.status, 204);
  t.is((await api.request('DELETE', `/integrations${path}`, { headers: admin })).status, 404);
  t.is((await webhookInfo(created.connectionId, admin)).status, 404);
  t.is((await api.request('POST', `/webhooks/messaging_api/${info.webhookPath}`, { body: {} })).status, 404);
  t.is((await connect(admin, credential({ phoneNumberId: body.data.phoneNumberId }))).status, 201);
});

test('no secret is stored in plain text, and none reaches the log', async (t) => {
  const { admin } = await newTenant();
  const body = credential();
  const created = await connect(admin, body);
  const { verifyToken } = (await webhookInfo(created.body.connectionId, admin)).body;
  // A rejected body carrying a token must not leak it either.
  const rejectedToken = `EAAG${randomBytes(48).toString('base64url')}`;
  await connect(admin, credential({ accessToken: rejectedToken, phoneNumber: 'not a number' }));
  const secrets = [body.data.accessToken, body.data.appSecret, verifyToken, rejectedToken];

  const stored = await everythingStored(api);
  t.true(stored.includes(created.body.connectionId), 'the connection is stored');
  for (const secret of secrets) t.false(stored.includes(secret));

  const logged = logLines.join('\n');
  t.true(
    logLines.some((line) => line.includes(`/integrations/app-connections/${created.body.connectionId}/webhook-info`)),
    'requests are logged',
  );
  for (const secret of [...secrets, admin.authorization.slice('Bearer '.length)]) t.false(logged.includes(secret));
});

test('in production a connection cannot accept unsigned deliveries; the callback URL uses PUBLIC_BASE_URL', async (t) => {
  const production = await startTestApi({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.shop.example/' });
  t.teardown(() => production.close());
  const { admin } = await newTenant(production);

  const refused = await connect(admin, credential({ developmentMode: true }), production);
  t.is(refused.status, 400);
  t.deepEqual(
    refused.body.error.details.map((d: { path: string }) => d.path),
    ['/data/developmentMode'],
  );

  const created = await connect(admin, credential({ developmentMode: false }), production);
  t.is(created.status, 201);
  const info = await webhookInfo(created.body.connectionId, admin, production);
  t.is(info.body.webhookUrl, `https://api.shop.example/webhooks/messaging_api/${info.body.webhookPath}`);

  const local = await newTenant();
  const allowed = await connect(local.admin, credential({ developmentMode: true, appSecret: undefined }));
  t.is(allowed.status, 201, 'outside production development mode is allowed');
  t.deepEqual(allowed.body.data, { ...allowed.body.data, hasAppSecret: false, developmentMode: true });
});
