import { randomBytes, randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { ScheduleNotFoundError } from '@temporalio/client';
import { createConnectorRecords } from '#connectors/records.js';
import { secretBoxFromConfig } from '#platform/secret-box.js';
import { createTemporalClient } from '#platform/temporal.js';
import { everythingStored, startTestApi, type TestApi } from '#testing/api.js';
import { connectingTenant, uploadFile, type ConnectingTenant } from '#testing/connectors.js';
import { startFakeCms, type FakeCms } from '#testing/fake-cms.js';
import { startFakeShop, type FakeShop } from '#testing/fake-shop.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { captureLogLines } from '#testing/log-capture.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { connectorScheduleId } from '#workflows/ids.js';
import { listOf } from '../schemas/admin.js';
import { errorBody } from '../schemas/common.js';
import { connectorResponse, fileUploadResponse, syncStartedResponse, uploadedFileResponse } from '../schemas/connectors.js';

/*
 * The connector routes against the real API, Redis and Temporal, without a worker: creating a
 * connector creates its schedule, whose syncs nobody runs. Every connector made here is removed
 * (schedule and all) after the tests.
 */

let stack: IngestionStack;
let api: TestApi;
let temporal: ReturnType<typeof createTemporalClient>;
let shop: FakeShop;
let cms: FakeCms;

/** Each connector a test made, with the API and headers that remove it. */
const made: Array<{ target: TestApi; headers: Record<string, string>; id: string }> = [];

test.before(async () => {
  [stack, shop, cms] = await Promise.all([startIngestionStack({}, { worker: false }), startFakeShop(), startFakeCms()]);
  api = stack.api;
  temporal = createTemporalClient(api.config.temporal);
});

test.after.always(async () => {
  const left = await removeAll(made);
  await Promise.allSettled([shop?.close(), cms?.close(), temporal?.close()]);
  await stack?.close();
  if (left.length > 0) throw new Error(`connectors not removed: ${left.join(', ')}`);
});

/** Removes connectors; returns the ids that could not be (an id already gone is fine). */
async function removeAll(connectors: typeof made): Promise<string[]> {
  const left: string[] = [];
  for (const { target, headers, id } of connectors) {
    const removed = await target.request('DELETE', `/connectors/${id}`, { headers }).catch(() => undefined);
    if (removed?.status !== 204 && removed?.status !== 404) left.push(id);
  }
  return left;
}

/**
 * An API of the test's own (other settings, or its log captured), with a tenant and its admin: the
 * connectors the test makes there are removed, and the API closed, when the test ends.
 */
async function ownApi(t: ExecutionContext, overrides: Record<string, string>, sink?: Parameters<typeof startTestApi>[1]) {
  const target = await startTestApi({ TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`, ...overrides }, sink);
  const own: typeof made = [];
  t.teardown(async () => {
    const left = await removeAll(own);
    await target.close();
    if (left.length > 0) throw new Error(`connectors not removed: ${left.join(', ')}`);
  });
  const tenant = await connectingTenant(target);
  /** POSTs a connector as the tenant's admin; a created one is removed after the test. */
  const post = async (kind: Kind, body: unknown) => {
    const response = await target.request('POST', `/connectors/${kind}`, { body, headers: tenant.userHeaders });
    if (response.status === 201) own.push({ target, headers: tenant.userHeaders, id: response.body.id });
    return response;
  };
  return { target, tenant, post };
}

type Kind = 'shop' | 'cms';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const secret = () => randomBytes(24).toString('base64url');

function shopBody(data: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) {
  return {
    name: 'Northwind shop',
    data: {
      adminUrl: shop.url,
      apiVersion: shop.apiVersion,
      accessToken: `shpat_${secret()}`,
      webhookSecret: secret(),
      ...data,
    },
    ...fields,
  };
}

function cmsBody(data: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) {
  return {
    name: 'Northwind journal',
    data: { siteUrl: cms.url, username: 'editor', applicationPassword: secret(), ...data },
    ...fields,
  };
}

const bodyOf = (kind: Kind, data: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) =>
  kind === 'shop' ? shopBody(data, fields) : cmsBody(data, fields);

/** The secrets a create body carries. */
function secretsOf(body: unknown): string[] {
  const data = (body as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return [];
  const { accessToken, webhookSecret, applicationPassword } = data as Record<string, unknown>;
  return [accessToken, webhookSecret, applicationPassword].filter((value): value is string => typeof value === 'string');
}

/** POST /connectors/{kind}; a connector it makes is removed after the tests. */
async function create(headers: Record<string, string>, kind: Kind, body: unknown, target: TestApi = api) {
  const response = await target.request('POST', `/connectors/${kind}`, { body, headers });
  if (response.status === 201) made.push({ target, headers, id: response.body.id });
  return response;
}

/** Creates a connector that must be created. */
async function connected(tenant: ConnectingTenant, kind: Kind, body: unknown = bodyOf(kind)) {
  const response = await create(tenant.userHeaders, kind, body);
  if (response.status !== 201) throw new Error(`connector not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A user of the tenant with role `agent`. */
async function agentOf(tenant: ConnectingTenant) {
  const agent = await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, {
    name: 'Alan',
    email: `alan-${randomUUID()}@shop.test`,
    role: 'agent',
  });
  return bearer(agent.body.token);
}

/** The tenant's keys made for connectors. */
async function connectorKeysOf(tenantId: string, target: TestApi = api) {
  return (await target.tenancy.listApiKeys(tenantId)).filter((key) => key.name.includes('connector'));
}

/** Asserts the one error body with this status and code; returns the error. */
function assertError(t: ExecutionContext, response: { status: number; body: any }, status: number, code: string) {
  t.is(response.status, status, JSON.stringify(response.body));
  assertMatchesSchema(t, errorBody, response.body);
  t.is(response.body?.error?.code, code);
  return response.body?.error as { code: string; message: string; details?: Array<{ path: string; message: string }> };
}

/** Asserts that the next sync is at most one interval away. */
function assertNextSync(t: ExecutionContext, connector: any, everyMinutes: number) {
  const next = Date.parse(connector.sync.nextSyncAt);
  t.true(next > Date.now() - 60_000, connector.sync.nextSyncAt);
  t.true(next <= Date.now() + everyMinutes * 60_000, connector.sync.nextSyncAt);
}

test('an admin connects a shop: 201 with its settings, a webhook URL and the next sync, never a secret', async (t) => {
  const tenant = await connectingTenant(api);
  const body = shopBody();
  const before = Date.now();
  const response = await create(tenant.userHeaders, 'shop', body);
  t.is(response.status, 201, JSON.stringify(response.body));
  assertMatchesSchema(t, connectorResponse, response.body);

  const { id, webhookUrl, createdAt, sync, ...rest } = response.body;
  t.regex(id, uuid);
  t.deepEqual(rest, {
    type: 'shop',
    name: 'Northwind shop',
    knowledgeBaseId: tenant.kb,
    integrationId: `shop-${id}`,
    syncEveryMinutes: 360,
    data: { adminUrl: shop.url, apiVersion: shop.apiVersion },
  });
  t.false('fullSyncEveryHours' in response.body);
  t.regex(webhookUrl, new RegExp(`^${api.config.publicBaseUrl}/webhooks/shop/[A-Za-z0-9_-]{32}$`));
  for (const part of [id, tenant.tenant.id]) t.false(webhookUrl.includes(part));
  t.true(Date.parse(createdAt) >= before - 1000 && Date.parse(createdAt) <= Date.now() + 1000, createdAt);
  t.true(['idle', 'running'].includes(sync.state));
  t.is(sync.last, undefined);
  assertNextSync(t, response.body, 360);

  const text = JSON.stringify(response.body);
  for (const value of secretsOf(body)) t.false(text.includes(value));

  const another = await connected(tenant, 'shop');
  t.not(another.webhookUrl, webhookUrl, 'each shop has a webhook address of its own');
});

test('an admin connects a site: 201 with 15-minute syncs, a daily full one and no webhook URL', async (t) => {
  const tenant = await connectingTenant(api);
  const body = cmsBody();
  const response = await create(tenant.userHeaders, 'cms', body);
  t.is(response.status, 201, JSON.stringify(response.body));
  assertMatchesSchema(t, connectorResponse, response.body);

  const { id, createdAt, sync, ...rest } = response.body;
  t.regex(id, uuid);
  t.deepEqual(rest, {
    type: 'cms',
    name: 'Northwind journal',
    knowledgeBaseId: tenant.kb,
    integrationId: `cms-${id}`,
    syncEveryMinutes: 15,
    fullSyncEveryHours: 24,
    data: { siteUrl: cms.url, username: 'editor' },
  });
  t.false('webhookUrl' in response.body);
  t.false(Number.isNaN(Date.parse(createdAt)));
  assertNextSync(t, response.body, 15);
  const text = JSON.stringify(response.body);
  for (const value of secretsOf(body)) t.false(text.includes(value));

  // A public site needs no credentials.
  const anonymous = await connected(tenant, 'cms', cmsBody({ username: undefined, applicationPassword: undefined }));
  t.deepEqual(anonymous.data, { siteUrl: cms.url, username: null });
});

test('the knowledge base, schedule and page size given are kept', async (t) => {
  const tenant = await connectingTenant(api);
  const second = await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/knowledge-bases`, { name: 'Catalogue' });
  t.is(second.status, 201);

  const shopConnector = await connected(
    tenant,
    'shop',
    shopBody({ pageSize: 50 }, { knowledgeBaseId: second.body.id, syncEveryMinutes: 60 }),
  );
  t.like(shopConnector, {
    knowledgeBaseId: second.body.id,
    syncEveryMinutes: 60,
    data: { adminUrl: shop.url, apiVersion: shop.apiVersion, pageSize: 50 },
  });
  assertNextSync(t, shopConnector, 60);

  const site = await connected(tenant, 'cms', cmsBody({ pageSize: 100 }, { syncEveryMinutes: 5, fullSyncEveryHours: 720 }));
  t.like(site, { knowledgeBaseId: tenant.kb, syncEveryMinutes: 5, fullSyncEveryHours: 720 });
  t.deepEqual(site.data, { siteUrl: cms.url, username: 'editor', pageSize: 100 });
  assertNextSync(t, site, 5);

  const schedule = await temporal.client.schedule.getHandle(connectorScheduleId(tenant.tenant.id, site.id)).describe();
  t.is(schedule.action.type, 'startWorkflow');
  t.like(schedule.action, { workflowType: 'cmsSyncWorkflow', taskQueue: api.config.temporal.taskQueue });
  t.deepEqual(
    schedule.spec.intervals?.map((interval) => interval.every),
    [5 * 60_000],
  );
});

test('no secret appears in what create, get and list return, nor in the connector key name', async (t) => {
  const tenant = await connectingTenant(api);
  const bodies = { shop: shopBody(), cms: cmsBody() };
  const shopConnector = await connected(tenant, 'shop', bodies.shop);
  const site = await connected(tenant, 'cms', bodies.cms);
  const records = createConnectorRecords(api.redis, api.config.redis.prefix, secretBoxFromConfig(api.config));
  const ingestionKeys = await Promise.all([shopConnector, site].map(async (c) => (await records.secretsOf(c)).ingestionKey));

  const responses = [
    JSON.stringify(shopConnector),
    JSON.stringify(site),
    JSON.stringify((await tenant.asAdmin('GET', `/connectors/${shopConnector.id}`)).body),
    JSON.stringify((await tenant.asAdmin('GET', `/connectors/${site.id}`)).body),
    JSON.stringify((await tenant.asAdmin('GET', '/connectors')).body),
    JSON.stringify(await connectorKeysOf(tenant.tenant.id)),
  ];
  t.true(responses[4]!.includes(shopConnector.id) && responses[4]!.includes(site.id), 'the list holds both');
  for (const value of [...secretsOf(bodies.shop), ...secretsOf(bodies.cms), ...ingestionKeys]) {
    t.true(value.length >= 20);
    for (const text of responses) t.false(text.includes(value));
  }
});

const invalidBodies: Array<[string, Kind, () => unknown, string]> = [
  ['no name', 'shop', () => shopBody({}, { name: undefined }), '/name'],
  ['no name', 'cms', () => cmsBody({}, { name: undefined }), '/name'],
  ['an empty name', 'shop', () => shopBody({}, { name: '' }), '/name'],
  ['a name of 201 characters', 'cms', () => cmsBody({}, { name: 'n'.repeat(201) }), '/name'],
  ['no data', 'shop', () => ({ name: 'Northwind shop' }), '/data'],
  ['data that is a string', 'cms', () => ({ name: 'Northwind journal', data: 'https://journal.example.com' }), '/data'],
  ['an unknown field', 'shop', () => shopBody({}, { webhookPath: 'mine' }), '/webhookPath'],
  ['an unknown field', 'cms', () => cmsBody({}, { integrationId: 'cms-mine' }), '/integrationId'],
  ['a full-sync interval (a CMS setting)', 'shop', () => shopBody({}, { fullSyncEveryHours: 24 }), '/fullSyncEveryHours'],
  ['an unknown data field', 'shop', () => shopBody({ password: 'hunter2' }), '/data/password'],
  ['an unknown data field', 'cms', () => cmsBody({ accessToken: 'abc' }), '/data/accessToken'],
  ['no admin URL', 'shop', () => shopBody({ adminUrl: undefined }), '/data/adminUrl'],
  ['an admin URL that is no URL', 'shop', () => shopBody({ adminUrl: 'northwind shop' }), '/data/adminUrl'],
  ['an admin URL without a scheme', 'shop', () => shopBody({ adminUrl: 'northwind.myshop.example' }), '/data/adminUrl'],
  ['an ftp admin URL', 'shop', () => shopBody({ adminUrl: 'ftp://northwind.myshop.example' }), '/data/adminUrl'],
  ['an admin URL with a query', 'shop', () => shopBody({ adminUrl: 'https://northwind.myshop.example/?x=1' }), '/data/adminUrl'],
  ['an admin URL that is a number', 'shop', () => shopBody({ adminUrl: 42 }), '/data/adminUrl'],
  ['a site URL that is no URL', 'cms', () => cmsBody({ siteUrl: 'journal' }), '/data/siteUrl'],
  ['an ftp site URL', 'cms', () => cmsBody({ siteUrl: 'ftp://journal.example.com' }), '/data/siteUrl'],
  [
    'a site URL with credentials in it',
    'cms',
    () => cmsBody({ siteUrl: 'https://editor:hunter2@journal.example.com' }),
    '/data/siteUrl',
  ],
  [
    'an admin URL with credentials in it',
    'shop',
    () => shopBody({ adminUrl: 'https://app:token@northwind.myshop.example' }),
    '/data/adminUrl',
  ],
  ['a javascript site URL', 'cms', () => cmsBody({ siteUrl: 'javascript:alert(1)' }), '/data/siteUrl'],
  ['no API version', 'shop', () => shopBody({ apiVersion: undefined }), '/data/apiVersion'],
  ['an API version of one month digit', 'shop', () => shopBody({ apiVersion: '2025-1' }), '/data/apiVersion'],
  ['an API version with a day', 'shop', () => shopBody({ apiVersion: '2025-01-01' }), '/data/apiVersion'],
  ['an API version that is a word', 'shop', () => shopBody({ apiVersion: 'latest' }), '/data/apiVersion'],
  ['a page size of 0', 'shop', () => shopBody({ pageSize: 0 }), '/data/pageSize'],
  ['a page size of 251', 'shop', () => shopBody({ pageSize: 251 }), '/data/pageSize'],
  ['a page size of 12.5', 'shop', () => shopBody({ pageSize: 12.5 }), '/data/pageSize'],
  ['a page size of 0', 'cms', () => cmsBody({ pageSize: 0 }), '/data/pageSize'],
  ['a page size of 101', 'cms', () => cmsBody({ pageSize: 101 }), '/data/pageSize'],
  ['a page size that is text', 'cms', () => cmsBody({ pageSize: '50' }), '/data/pageSize'],
  ['no access token', 'shop', () => shopBody({ accessToken: undefined }), '/data/accessToken'],
  ['an empty access token', 'shop', () => shopBody({ accessToken: '' }), '/data/accessToken'],
  ['an access token with a space', 'shop', () => shopBody({ accessToken: `shpat_${secret()} ${secret()}` }), '/data/accessToken'],
  [
    'an access token with a line break',
    'shop',
    () => shopBody({ accessToken: `shpat_${secret()}\r\nX-Evil: 1` }),
    '/data/accessToken',
  ],
  ['an access token of 1025 characters', 'shop', () => shopBody({ accessToken: 'a'.repeat(1025) }), '/data/accessToken'],
  ['no webhook secret', 'shop', () => shopBody({ webhookSecret: undefined }), '/data/webhookSecret'],
  ['a webhook secret with a tab', 'shop', () => shopBody({ webhookSecret: `${secret()}\t${secret()}` }), '/data/webhookSecret'],
  [
    'an application password with a line break',
    'cms',
    () => cmsBody({ applicationPassword: `${secret()}\n` }),
    '/data/applicationPassword',
  ],
  ['an empty username', 'cms', () => cmsBody({ username: '' }), '/data/username'],
  ['a sync every 4 minutes', 'shop', () => shopBody({}, { syncEveryMinutes: 4 }), '/syncEveryMinutes'],
  ['a sync every 4 minutes', 'cms', () => cmsBody({}, { syncEveryMinutes: 4 }), '/syncEveryMinutes'],
  ['a sync less often than weekly', 'shop', () => shopBody({}, { syncEveryMinutes: 10_081 }), '/syncEveryMinutes'],
  ['a sync interval that is text', 'cms', () => cmsBody({}, { syncEveryMinutes: '60' }), '/syncEveryMinutes'],
  ['a full sync every 0 hours', 'cms', () => cmsBody({}, { fullSyncEveryHours: 0 }), '/fullSyncEveryHours'],
  ['a full sync every 721 hours', 'cms', () => cmsBody({}, { fullSyncEveryHours: 721 }), '/fullSyncEveryHours'],
  ['a knowledge base id that is no UUID', 'shop', () => shopBody({}, { knowledgeBaseId: 'default' }), '/knowledgeBaseId'],
  [
    'a username without an application password',
    'cms',
    () => cmsBody({ applicationPassword: undefined }),
    '/data/applicationPassword',
  ],
  ['an application password without a username', 'cms', () => cmsBody({ username: undefined }), '/data/username'],
];

for (const [what, kind, bodyFor, path] of invalidBodies) {
  test(`a ${kind} connector with ${what} is 400 naming ${path}`, async (t) => {
    const tenant = await connectingTenant(api);
    const body = bodyFor();
    const response = await create(tenant.userHeaders, kind, body);
    const error = assertError(t, response, 400, 'invalid_payload');
    t.deepEqual([...new Set(error.details?.map((detail) => detail.path))], [path], JSON.stringify(error.details));
    t.notRegex(error.message, /pattern|\^|\$/, 'said in words, never as a regular expression');
    const text = JSON.stringify(response.body);
    for (const value of secretsOf(body)) {
      if (value.length > 8) t.false(text.includes(value));
    }
    t.deepEqual(await connectorKeysOf(tenant.tenant.id), [], 'no key is minted for a refused connector');
    t.deepEqual((await tenant.asAdmin('GET', '/connectors')).body, { connectors: [] });
  });
}

test('an application password is taken as the site shows it, in groups of four with spaces; a wrong one is refused in words', async (t) => {
  const tenant = await connectingTenant(api);
  const shown = await create(tenant.userHeaders, 'cms', cmsBody({ applicationPassword: 'abcd EFGH 1234 ijkl MNOP 5678' }));
  t.is(shown.status, 201, JSON.stringify(shown.body));
  const refused = await create(tenant.userHeaders, 'cms', cmsBody({ applicationPassword: 'abcd\tEFGH' }));
  const error = assertError(t, refused, 400, 'invalid_payload');
  t.deepEqual(error.details, [
    {
      path: '/data/applicationPassword',
      message: 'must be printable ASCII characters (letters, digits, symbols); spaces between groups are fine',
    },
  ]);
});

test('a body that is not JSON, JSON that is not an object, or no body at all is 400 invalid_payload', async (t) => {
  const tenant = await connectingTenant(api);
  for (const kind of ['shop', 'cms'] as const) {
    const broken = await create(tenant.userHeaders, kind, '{"name": "Northwind", "data": {');
    t.regex(assertError(t, broken, 400, 'invalid_payload').message, /not valid JSON/);
    for (const body of ['[]', '"a shop"', 'null']) {
      assertError(t, await create(tenant.userHeaders, kind, body), 400, 'invalid_payload');
    }
    const bodiless = await tenant.asAdmin('POST', `/connectors/${kind}`, undefined);
    assertError(t, bodiless, 400, 'invalid_payload');
  }
  t.deepEqual((await tenant.asAdmin('GET', '/connectors')).body, { connectors: [] });
});

test('every route is 401 without a valid user token, and 403 for an agent', async (t) => {
  const tenant = await connectingTenant(api);
  const connector = await connected(tenant, 'shop');
  const routes: Array<[string, string, unknown]> = [
    ['POST', '/connectors/shop', shopBody()],
    ['POST', '/connectors/cms', cmsBody()],
    ['GET', '/connectors', undefined],
    ['GET', `/connectors/${connector.id}`, undefined],
    ['POST', `/connectors/${connector.id}/sync`, {}],
    ['DELETE', `/connectors/${connector.id}`, undefined],
  ];
  const unauthenticated: Array<Record<string, string>> = [
    {},
    bearer('kb_ut_nope'),
    bearer(''),
    { authorization: tenant.userHeaders.authorization.replace('Bearer ', 'Basic ') },
    bearer(api.adminToken),
    tenant.headers,
  ];
  for (const headers of unauthenticated) {
    for (const [method, path, body] of routes) {
      const response = await api.request(method, path, { headers, body });
      if (response.status === 201) made.push({ target: api, headers: tenant.userHeaders, id: response.body.id });
      assertError(t, response, 401, 'unauthorized');
    }
  }

  const agent = await agentOf(tenant);
  for (const [method, path, body] of routes) {
    const response = await api.request(method, path, { headers: agent, body });
    if (response.status === 201) made.push({ target: api, headers: tenant.userHeaders, id: response.body.id });
    assertError(t, response, 403, 'forbidden');
  }

  // Nothing was made or removed on their behalf.
  const list = (await tenant.asAdmin('GET', '/connectors')).body.connectors;
  t.deepEqual(
    list.map((c: { id: string }) => c.id),
    [connector.id],
  );
  t.deepEqual(
    (await connectorKeysOf(tenant.tenant.id)).map((key) => key.active),
    [true],
  );
});

test("another tenant's knowledge base is 403, an unknown one 404; neither leaves a key or a connector", async (t) => {
  const tenant = await connectingTenant(api);
  const other = await connectingTenant(api);
  for (const kind of ['shop', 'cms'] as const) {
    const foreign = await create(tenant.userHeaders, kind, bodyOf(kind, {}, { knowledgeBaseId: other.kb }));
    t.regex(assertError(t, foreign, 403, 'forbidden').message, /another tenant/);
    const unknown = await create(tenant.userHeaders, kind, bodyOf(kind, {}, { knowledgeBaseId: randomUUID() }));
    assertError(t, unknown, 404, 'not_found');
  }
  t.deepEqual(await connectorKeysOf(tenant.tenant.id), []);
  t.deepEqual((await tenant.asAdmin('GET', '/connectors')).body, { connectors: [] });
  t.deepEqual((await other.asAdmin('GET', '/connectors')).body, { connectors: [] });
});

test("the list holds the tenant's own connectors, oldest first; one reads as it was created", async (t) => {
  const tenant = await connectingTenant(api);
  const other = await connectingTenant(api);
  t.deepEqual((await tenant.asAdmin('GET', '/connectors')).body, { connectors: [] });

  const first = await connected(tenant, 'shop');
  const theirs = await connected(other, 'cms');
  const second = await connected(tenant, 'cms');
  const third = await connected(tenant, 'shop', shopBody({}, { name: 'Outlet shop' }));

  const list = await tenant.asAdmin('GET', '/connectors');
  t.is(list.status, 200);
  assertMatchesSchema(t, listOf('connectors', connectorResponse), list.body);
  t.deepEqual(
    list.body.connectors.map((c: { id: string }) => c.id),
    [first.id, second.id, third.id],
  );
  t.deepEqual(
    (await other.asAdmin('GET', '/connectors')).body.connectors.map((c: { id: string }) => c.id),
    [theirs.id],
  );

  for (const created of [first, second, third]) {
    const read = await tenant.asAdmin('GET', `/connectors/${created.id}`);
    t.is(read.status, 200);
    assertMatchesSchema(t, connectorResponse, read.body);
    const { sync, ...settings } = read.body;
    const { sync: createdSync, ...createdSettings } = created;
    t.deepEqual(settings, createdSettings);
    t.true(Date.parse(sync.nextSyncAt) >= Date.parse(createdSync.nextSyncAt));
  }
});

/** POSTs a small Markdown file to a files source. */
const uploadTo = (headers: Record<string, string>, connectorId: string) =>
  uploadFile(api, headers, connectorId, { name: 'notes.md', bytes: '# Notes\n\nRinse the filter.\n' });

test('a files source: 201 with no schedule; sync is 409; its files are its own tenant\'s; uploads go to files sources only', async (t) => {
  const tenant = await connectingTenant(api);
  const created = await tenant.asAdmin('POST', '/connectors/files', { name: 'Manuals' });
  t.is(created.status, 201, JSON.stringify(created.body));
  made.push({ target: api, headers: tenant.userHeaders, id: created.body.id });
  assertMatchesSchema(t, connectorResponse, created.body);
  t.like(created.body, {
    type: 'files',
    syncEveryMinutes: null,
    data: { maxFileBytes: 25 * 1_048_576, maxFiles: 10_000 },
    files: { queued: 0, ingested: 0 },
    sync: { state: 'idle', nextSyncAt: null },
  });
  await t.throwsAsync(temporal.client.schedule.getHandle(connectorScheduleId(tenant.tenant.id, created.body.id)).describe(), {
    instanceOf: ScheduleNotFoundError,
  });
  assertError(t, await tenant.asAdmin('POST', `/connectors/${created.body.id}/sync`, {}), 409, 'conflict');
  assertError(t, await tenant.asAdmin('POST', '/connectors/files', { name: 'x', extra: 1 }), 400, 'invalid_payload');

  // No worker runs here: the upload waits, queued.
  const uploaded = await uploadTo(tenant.userHeaders, created.body.id);
  t.is(uploaded.status, 202);
  assertMatchesSchema(t, fileUploadResponse, uploaded.body);
  const file = `/connectors/${created.body.id}/files/${uploaded.body.file.id}`;
  assertMatchesSchema(t, uploadedFileResponse, (await tenant.asAdmin('GET', file)).body);
  t.like((await tenant.asAdmin('GET', `/connectors/${created.body.id}`)).body, { files: { queued: 1 } });

  const stranger = await connectingTenant(api);
  for (const [method, path] of [
    ['GET', `/connectors/${created.body.id}/files`],
    ['GET', file],
    ['DELETE', file],
  ] as const) {
    assertError(t, await stranger.asAdmin(method, path), 403, 'forbidden');
  }
  assertError(t, await uploadTo(stranger.userHeaders, created.body.id), 403, 'forbidden');
  assertError(t, await uploadTo(await agentOf(tenant), created.body.id), 403, 'forbidden');
  assertError(t, await tenant.asAdmin('GET', `/connectors/${created.body.id}/files/${randomUUID()}`), 404, 'not_found');
  assertError(t, await uploadTo(tenant.userHeaders, randomUUID()), 404, 'not_found');
  const shopConnector = await connected(tenant, 'shop');
  const wrongKind = assertError(t, await uploadTo(tenant.userHeaders, shopConnector.id), 409, 'conflict');
  t.regex(wrongKind.message, /shop connector: files are uploaded to a files source/);

  const removed = await tenant.asAdmin('DELETE', file);
  t.is(removed.status, 202);
  t.is(removed.body.status, 'removing');
  assertError(t, await tenant.asAdmin('GET', file), 404, 'not_found');
});

test("another tenant's connector is 403 to read, sync and remove; an unknown or malformed id is 404", async (t) => {
  const owner = await connectingTenant(api);
  const stranger = await connectingTenant(api);
  const connector = await connected(owner, 'cms');

  for (const [method, path, body] of [
    ['GET', `/connectors/${connector.id}`, undefined],
    ['POST', `/connectors/${connector.id}/sync`, { full: true }],
    ['DELETE', `/connectors/${connector.id}`, undefined],
  ] as const) {
    const response = await stranger.asAdmin(method, path, body);
    const error = assertError(t, response, 403, 'forbidden');
    t.false(JSON.stringify(error).includes(connector.data.siteUrl), `${method} ${path}`);
  }
  // Still there, untouched: no full sync asked for, the key active.
  t.is((await owner.asAdmin('GET', `/connectors/${connector.id}`)).status, 200);
  t.false(await api.redis.hExists(`${api.config.redis.prefix}:connector:${connector.id}:sync`, 'fullSyncRequested'));
  t.deepEqual(
    (await connectorKeysOf(owner.tenant.id)).map((key) => key.active),
    [true],
  );

  for (const id of [randomUUID(), 'nope', connector.id.toUpperCase(), `${connector.id}x`, '..%2F..%2Fadmin']) {
    for (const [method, path, body] of [
      ['GET', `/connectors/${id}`, undefined],
      ['POST', `/connectors/${id}/sync`, {}],
      ['DELETE', `/connectors/${id}`, undefined],
    ] as const) {
      assertError(t, await owner.asAdmin(method, path, body), 404, 'not_found');
    }
  }
});

test('sync now is 202; full: true asks a site for a full sync; anything else in the body is 400', async (t) => {
  const tenant = await connectingTenant(api);
  const site = await connected(tenant, 'cms');
  const shopConnector = await connected(tenant, 'shop');
  const syncKey = (id: string) => `${api.config.redis.prefix}:connector:${id}:sync`;

  for (const body of [{}, { full: false }]) {
    const started = await tenant.asAdmin('POST', `/connectors/${site.id}/sync`, body);
    t.is(started.status, 202, JSON.stringify(body));
    assertMatchesSchema(t, syncStartedResponse, started.body);
    t.deepEqual(started.body, { status: 'started' });
  }
  const bare = await api.request('POST', `/connectors/${site.id}/sync`, { headers: tenant.userHeaders });
  t.is(bare.status, 202, 'no body at all is a plain sync');
  t.false(await api.redis.hExists(syncKey(site.id), 'fullSyncRequested'), 'no full sync asked for');

  const full = await tenant.asAdmin('POST', `/connectors/${site.id}/sync`, { full: true });
  t.is(full.status, 202);
  t.deepEqual(full.body, { status: 'started' });
  t.is(await api.redis.hGet(syncKey(site.id), 'fullSyncRequested'), 'true');

  // A shop's syncs are all full: the flag is accepted and changes nothing.
  const shopFull = await tenant.asAdmin('POST', `/connectors/${shopConnector.id}/sync`, { full: true });
  t.is(shopFull.status, 202);
  t.false(await api.redis.hExists(syncKey(shopConnector.id), 'fullSyncRequested'));

  for (const [body, path] of [
    [{ full: 'yes' }, '/full'],
    [{ full: 1 }, '/full'],
    [{ mode: 'full' }, '/mode'],
  ] as const) {
    const refused = await tenant.asAdmin('POST', `/connectors/${shopConnector.id}/sync`, body);
    const error = assertError(t, refused, 400, 'invalid_payload');
    t.deepEqual(
      error.details?.map((detail) => detail.path),
      [path],
    );
  }
  const broken = await tenant.asAdmin('POST', `/connectors/${site.id}/sync`, '{"full": tr');
  assertError(t, broken, 400, 'invalid_payload');
});

test("removing a connector is 204: its schedule, record and key go, the tenant's own key stays", async (t) => {
  const tenant = await connectingTenant(api);
  for (const kind of ['shop', 'cms'] as const) {
    const name = `Northwind ${kind} ${randomUUID().slice(0, 8)}`;
    const connector = await connected(tenant, kind, bodyOf(kind, {}, { name }));
    const scheduleId = connectorScheduleId(tenant.tenant.id, connector.id);
    await temporal.client.schedule.getHandle(scheduleId).describe();
    const key = (await api.tenancy.listApiKeys(tenant.tenant.id)).find((k) => k.name === `${kind} connector: ${name}`);
    t.truthy(key, `a key named "${kind} connector: ${name}"`);
    t.true(key!.active);
    t.deepEqual(key!.scopes, ['iq:import']);

    const removed = await tenant.asAdmin('DELETE', `/connectors/${connector.id}`);
    t.is(removed.status, 204);
    t.is(removed.body, undefined);

    assertError(t, await tenant.asAdmin('GET', `/connectors/${connector.id}`), 404, 'not_found');
    assertError(t, await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`, {}), 404, 'not_found');
    assertError(t, await tenant.asAdmin('DELETE', `/connectors/${connector.id}`), 404, 'not_found');
    t.false(JSON.stringify((await tenant.asAdmin('GET', '/connectors')).body).includes(connector.id));

    const after = (await api.tenancy.listApiKeys(tenant.tenant.id)).find((k) => k.id === key!.id);
    t.false(after!.active, 'the key is revoked');
    t.is(await api.redis.exists(`${api.config.redis.prefix}:connector:${connector.id}`), 0);
    const error = await t.throwsAsync(temporal.client.schedule.getHandle(scheduleId).describe());
    t.true(error instanceof ScheduleNotFoundError, String(error));
  }
  // The tenant's own key stays.
  t.true((await api.tenancy.listApiKeys(tenant.tenant.id)).some((k) => k.name === 'key' && k.active));
});

test('at rest the secrets are sealed: the Redis hash holds none of them in plain text', async (t) => {
  const tenant = await connectingTenant(api);
  const box = secretBoxFromConfig(api.config);
  const records = createConnectorRecords(api.redis, api.config.redis.prefix, box);
  const bodies = { shop: shopBody(), cms: cmsBody() };
  for (const kind of ['shop', 'cms'] as const) {
    const body = bodies[kind];
    const connector = await connected(tenant, kind, body);
    const hash = await api.redis.hGetAll(`${api.config.redis.prefix}:connector:${connector.id}`);
    t.is(hash.tenantId, tenant.tenant.id);
    t.is(JSON.parse(hash.record!).id, connector.id);

    const stored = Object.entries(hash).flat().join('\n');
    const opened = await records.secretsOf(connector);
    for (const value of [...secretsOf(body), opened.ingestionKey])
      t.false(stored.includes(value), `${kind}: ${value.slice(0, 4)}…`);

    const sealed =
      kind === 'shop'
        ? ['ingestionKeySealed', 'accessTokenSealed', 'webhookSecretSealed']
        : ['ingestionKeySealed', 'applicationPasswordSealed'];
    for (const field of sealed) t.regex(hash[field] ?? '', /^v1\.[0-9a-f]{8}\./, field);
    // The sealed values are the secrets given, for the activities that open them.
    const data = body.data as Record<string, string>;
    const { ingestionKey, ...given } = opened;
    t.true(ingestionKey.length >= 20);
    t.deepEqual(
      given,
      kind === 'shop'
        ? { accessToken: data.accessToken, webhookSecret: data.webhookSecret }
        : { applicationPassword: data.applicationPassword },
    );
  }

  // Nor anywhere else this API wrote.
  const text = await everythingStored(api);
  for (const value of [...secretsOf(bodies.shop), ...secretsOf(bodies.cms)]) t.false(text.includes(value));
});

test('no secret reaches the log, whether the connector is made or refused', async (t) => {
  const { lines, sink } = captureLogLines();
  const { target: logged, tenant, post } = await ownApi(t, { LOG_LEVEL: 'trace' }, sink);
  const bodies = { shop: shopBody(), cms: cmsBody() };
  for (const kind of ['shop', 'cms'] as const) {
    const response = await post(kind, bodies[kind]);
    t.is(response.status, 201, JSON.stringify(response.body));
    t.is((await logged.request('GET', `/connectors/${response.body.id}`, { headers: tenant.userHeaders })).status, 200);
  }
  // Refused bodies carry secrets too.
  const refused = shopBody({ apiVersion: 'latest' });
  t.is((await logged.request('POST', '/connectors/shop', { body: refused, headers: tenant.userHeaders })).status, 400);
  const unparsable = `{"name": "x", "data": {"accessToken": "shpat_${secret()}"`;
  t.is((await logged.request('POST', '/connectors/shop', { body: unparsable, headers: tenant.userHeaders })).status, 400);

  t.true(
    lines.some((line) => {
      const entry = JSON.parse(line);
      return entry.method === 'POST' && entry.path === '/connectors/shop' && entry.status === 201;
    }),
    'the create request is logged',
  );
  const text = lines.join('\n');
  const secrets = [
    ...secretsOf(bodies.shop),
    ...secretsOf(bodies.cms),
    ...secretsOf(refused),
    unparsable.slice(unparsable.indexOf('shpat_'), -1),
    tenant.userHeaders.authorization.slice('Bearer '.length),
  ];
  for (const value of secrets) t.false(text.includes(value), value.slice(0, 6));
});

test('in production a connector must reach a public https address, and the webhook URL uses PUBLIC_BASE_URL', async (t) => {
  const {
    target: production,
    tenant,
    post,
  } = await ownApi(t, {
    NODE_ENV: 'production',
    PUBLIC_BASE_URL: 'https://api.shop.example/',
  });

  for (const [kind, field, address, problem] of [
    ['shop', 'adminUrl', shop.url, 'must use https'],
    ['shop', 'adminUrl', 'https://169.254.169.254', 'must be a public address'],
    ['shop', 'adminUrl', 'https://[::1]:8443', 'must be a public address'],
    ['cms', 'siteUrl', 'https://10.0.0.8/blog', 'must be a public address'],
    ['cms', 'siteUrl', 'https://wordpress.internal', 'must be a public host name'],
    ['cms', 'siteUrl', 'https://localhost', 'must be a public host name'],
    // It passes the schema's `uri` format; only the URL parser refuses the port.
    ['cms', 'siteUrl', 'https://journal.example.com:99999', 'must be a valid URL'],
  ] as const) {
    const refused = await post(kind, bodyOf(kind, { [field]: address }));
    const error = assertError(t, refused, 400, 'invalid_payload');
    t.deepEqual(error.details, [{ path: `/data/${field}`, message: problem }], address);
  }
  t.deepEqual(await connectorKeysOf(tenant.tenant.id, production), [], 'no key for a refused address');

  const created = await post('shop', shopBody({ adminUrl: 'https://northwind.myshop.example' }));
  t.is(created.status, 201, JSON.stringify(created.body));
  t.regex(created.body.webhookUrl, /^https:\/\/api\.shop\.example\/webhooks\/shop\/[A-Za-z0-9_-]{32}$/);
  const site = await post('cms', cmsBody({ siteUrl: 'https://journal.example.com' }));
  t.is(site.status, 201, JSON.stringify(site.body));
});

test('a schedule removed in Temporal reads as nothing ahead, and sync now makes it again', async (t) => {
  const tenant = await connectingTenant(api);
  const connector = await connected(tenant, 'cms');
  const handle = temporal.client.schedule.getHandle(connectorScheduleId(tenant.tenant.id, connector.id));
  await handle.delete();

  const read = await tenant.asAdmin('GET', `/connectors/${connector.id}`);
  t.is(read.status, 200);
  t.is(read.body.sync.nextSyncAt, null);

  t.is((await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`)).status, 202);
  const schedule = await handle.describe();
  t.is(schedule.action.workflowType, 'cmsSyncWorkflow');
  t.not((await tenant.asAdmin('GET', `/connectors/${connector.id}`)).body.sync.nextSyncAt, null);
});

test('a tenant has at most CONNECTORS_PER_TENANT connectors: one more is 409 and leaves nothing; removing one makes room', async (t) => {
  const { target, tenant, post } = await ownApi(t, { CONNECTORS_PER_TENANT: '2' });
  const first = await post('shop', shopBody());
  t.is(first.status, 201);
  t.is((await post('cms', cmsBody())).status, 201);

  for (const kind of ['shop', 'cms'] as const) {
    const refused = await post(kind, bodyOf(kind));
    t.is(
      assertError(t, refused, 409, 'connector_limit_reached').message,
      'This tenant has 2 connectors, the most it may have: remove one before connecting another source.',
    );
  }
  t.is((await tenant.asAdmin('GET', '/connectors')).body.connectors.length, 2);
  t.is((await connectorKeysOf(tenant.tenant.id, target)).length, 2);

  // The minimum interval stays: a connector that syncs more often than every 5 minutes is refused.
  t.is((await tenant.asAdmin('DELETE', `/connectors/${first.body.id}`)).status, 204);
  assertError(t, await post('shop', shopBody({}, { syncEveryMinutes: 4 })), 400, 'invalid_payload');
  t.is((await post('shop', shopBody())).status, 201);
});
