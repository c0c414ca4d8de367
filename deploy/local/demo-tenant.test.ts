import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { createAdminClient, createApiClient } from '#cli/admin-client.js';
import { startTestApi, type TestApi } from '#testing/api.js';
import { demoAgentUser } from './demo-agent.js';
import { ensureDemoTenant, type DemoTenant } from './demo-tenant.js';

let api: TestApi;

test.before(async () => {
  api = await startTestApi();
});

test.after.always(async () => {
  await api?.close();
});

/** A data folder of the test's own, as `npm start`'s. */
function dataFolder(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'demo-tenant-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const ensure = (dataDir: string) =>
  ensureDemoTenant(
    {
      admin: createAdminClient({ baseUrl: api.url, adminToken: api.adminToken }),
      asUser: (token) => createApiClient({ baseUrl: api.url, headers: { authorization: `Bearer ${token}` } }),
    },
    dataDir,
  );

const saved = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'demo-tenant.json'), 'utf8')) as DemoTenant;
const modeOf = (dataDir: string) => statSync(join(dataDir, 'demo-tenant.json')).mode & 0o777;

async function assertAgentWorks(t: ExecutionContext, demo: DemoTenant) {
  const inbox = await api.request('GET', '/agent/conversations', { headers: { authorization: `Bearer ${demo.agentToken}` } });
  t.is(inbox.status, 200, 'the agent token opens the agent inbox');
  const users = (await api.admin('GET', `/admin/tenants/${demo.tenantId}/users`)).body.users;
  t.like(
    users.find((user: { id: string }) => user.id === demo.agentUserId),
    { role: 'agent', email: demoAgentUser.email, active: true },
  );
}

test('the demo tenant and its agent are made once, kept readable by the owner only, and found again by a restart', async (t) => {
  const dataDir = dataFolder(t);
  const demo = await ensure(dataDir);
  t.deepEqual(saved(dataDir), demo);
  t.is(modeOf(dataDir), 0o600);
  await assertAgentWorks(t, demo);

  t.deepEqual(await ensure(dataDir), demo, 'the same tenant, keys and agent token');
  t.is((await api.admin('GET', `/admin/tenants/${demo.tenantId}/users`)).body.users.length, 1);
});

test('a record from before the agent gains one, and an owner-only mode', async (t) => {
  const dataDir = dataFolder(t);
  const { agentUserId: _user, agentToken: _token, ...older } = await ensure(dataDir);
  // As an earlier version left it: without the agent, and (written anew) readable by others.
  rmSync(join(dataDir, 'demo-tenant.json'));
  writeFileSync(join(dataDir, 'demo-tenant.json'), JSON.stringify(older), { mode: 0o644 });

  const demo = await ensure(dataDir);
  t.like(demo, older);
  t.is(modeOf(dataDir), 0o600);
  await assertAgentWorks(t, demo);
});

test('an agent whose token was rotated, or who was deactivated, works again after a restart', async (t) => {
  const dataDir = dataFolder(t);
  const demo = await ensure(dataDir);
  const user = `/admin/tenants/${demo.tenantId}/users/${demo.agentUserId}`;

  t.is((await api.admin('POST', `${user}/token`)).status, 201);
  const afterRotation = await ensure(dataDir);
  t.is(afterRotation.agentUserId, demo.agentUserId);
  t.not(afterRotation.agentToken, demo.agentToken);
  t.is(saved(dataDir).agentToken, afterRotation.agentToken);
  await assertAgentWorks(t, afterRotation);

  t.is((await api.admin('PATCH', user, { active: false })).status, 200);
  const afterDeactivation = await ensure(dataDir);
  t.is(afterDeactivation.agentUserId, demo.agentUserId);
  await assertAgentWorks(t, afterDeactivation);
});

test('a saved tenant that no longer works is replaced, with an agent of its own', async (t) => {
  const dataDir = dataFolder(t);
  const demo = await ensure(dataDir);
  await api.admin('PATCH', `/admin/tenants/${demo.tenantId}/api-keys/${demo.apiKeyId}`, { active: false });

  const replaced = await ensure(dataDir);
  t.not(replaced.tenantId, demo.tenantId);
  t.not(replaced.agentUserId, demo.agentUserId);
  await assertAgentWorks(t, replaced);
});
