import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createTemporalClient } from '#platform/temporal.js';
import { startTestApi, type TestApi } from '#testing/api.js';
import { repoRoot } from '#testing/processes.js';
import { runAdminCli } from './admin.js';

let api: TestApi;

test.before(async () => {
  api = await startTestApi();
});

test.after.always(async () => {
  await api?.close();
});

/** Runs the CLI in-process with the given environment, capturing its output. */
async function cli(argv: string[], env: Record<string, string> = {}, stdin?: string) {
  let stdout = '';
  let stderr = '';
  const code = await runAdminCli(argv, {
    env,
    ...(stdin === undefined ? {} : { stdin: Readable.from([stdin]) }),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/** Runs the CLI against the test API with its admin token; expects success and returns the JSON printed. */
async function admin(...argv: string[]) {
  const result = await cli([...argv, '--api-url', api.url], { ADMIN_TOKEN: api.adminToken });
  if (result.code !== 0) throw new Error(`admin ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.json();
}

/**
 * Runs the CLI as a tenant admin, with a user token; expects success and returns the JSON printed
 * (undefined when nothing was).
 */
const asUserWith =
  (token: string) =>
  async (...argv: string[]) => {
    const result = await cli([...argv, '--api-url', api.url], { USER_TOKEN: token });
    if (result.code !== 0) throw new Error(`admin ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result.stdout ? result.json() : undefined;
  };

/** A new tenant, named `name`, and an admin user of it: their token, and the CLI run with it. */
async function tenantAdmin(name: string) {
  const tenant = await admin('tenants', 'create', name);
  const email = `ada@${name.toLowerCase()}.example`;
  const { token } = await admin('users', 'create', tenant.id, '--name', 'Ada', '--email', email, '--role', 'admin');
  return { tenant, token: token as string, asUser: asUserWith(token) };
}

/** The JSON values printed one after the other (one per file uploaded), each indented as JSON.stringify does. */
const jsonValues = (stdout: string) => stdout.split(/\n(?=\{)/).map((text) => JSON.parse(text));

test('tenants and knowledge bases: create, read, list', async (t) => {
  const tenant = await admin('tenants', 'create', 'Acme');
  t.like(tenant, { name: 'Acme' });
  t.deepEqual(await admin('tenants', 'get', tenant.id), tenant);

  const knowledgeBase = await admin('knowledge-bases', 'create', tenant.id, 'Support docs');
  const { knowledgeBases } = await admin('knowledge-bases', 'list', tenant.id);
  t.deepEqual(
    knowledgeBases.map((kb: { id: string }) => kb.id),
    [tenant.defaultKnowledgeBaseId, knowledgeBase.id],
  );
});

test('knowledge bases: a re-index and its status', async (t) => {
  const tenant = await admin('tenants', 'create', 'Reindex');
  const kb = tenant.defaultKnowledgeBaseId;
  const missing = await cli(['knowledge-bases', 'reindex-status', tenant.id, kb, '--api-url', api.url], {
    ADMIN_TOKEN: api.adminToken,
  });
  t.is(missing.code, 1);
  t.regex(missing.stderr, /^error: not_found: /);

  // No worker serves this API's task queues: the re-index stays running until the test stops it.
  const started = await admin('knowledge-bases', 'reindex', tenant.id, kb);
  const temporal = createTemporalClient(api.config.temporal);
  t.teardown(async () => {
    await temporal.client.workflow.getHandle(started.workflowId).terminate('test done');
    await temporal.close();
  });
  t.like(started, { workflowId: `reindex/${tenant.id}/${kb}`, state: 'running', sent: 0 });
  t.deepEqual(await admin('knowledge-bases', 'reindex-status', tenant.id, kb), started);
});

test('api keys: create with two scopes, list without the secret, deactivate', async (t) => {
  const tenant = await admin('tenants', 'create', 'Keys');
  const key = await admin('api-keys', 'create', tenant.id, '--name', 'ci', '--scope', 'iq:read', '--scope', 'iq:import');
  t.like(key, { name: 'ci', scopes: ['iq:read', 'iq:import'], active: true, expiresAt: null });
  t.is(typeof key.key, 'string');

  const { apiKeys } = await admin('api-keys', 'list', tenant.id);
  t.is(apiKeys.length, 1);
  t.like(apiKeys[0], { id: key.id, prefix: key.prefix });
  t.false('key' in apiKeys[0]);

  t.like(await admin('api-keys', 'deactivate', tenant.id, key.id), { id: key.id, active: false });
  t.like((await admin('api-keys', 'list', tenant.id)).apiKeys[0], { active: false });
});

test('operators: create with domains, update one field, list', async (t) => {
  const tenant = await admin('tenants', 'create', 'Operators');
  const operator = await admin(
    'operators',
    'create',
    tenant.id,
    '--name',
    'Website',
    '--domain',
    'example.com',
    '--domain',
    '*.example.org',
    '--locale',
    'de',
  );
  t.like(operator, {
    name: 'Website',
    knowledgeBaseId: tenant.defaultKnowledgeBaseId,
    allowedDomains: ['example.com', '*.example.org'],
    locale: 'de',
  });
  t.regex(operator.operatorKey, /^op_/);

  const updated = await admin('operators', 'update', tenant.id, operator.id, '--name', 'Shop');
  t.like(updated, { name: 'Shop', allowedDomains: ['example.com', '*.example.org'], locale: 'de' });
  t.deepEqual((await admin('operators', 'list', tenant.id)).operators, [updated]);
});

test('users: create an agent, list without the token', async (t) => {
  const tenant = await admin('tenants', 'create', 'Users');
  const user = await admin('users', 'create', tenant.id, '--name', 'Ada', '--email', 'ada@example.com', '--role', 'agent');
  t.like(user, { name: 'Ada', email: 'ada@example.com', role: 'agent' });
  t.is(typeof user.token, 'string');

  const { users } = await admin('users', 'list', tenant.id);
  t.deepEqual(
    users.map((u: { id: string }) => u.id),
    [user.id],
  );
  t.false('token' in users[0]);
});

test('users: deactivate, reactivate and rotate a token', async (t) => {
  const tenant = await admin('tenants', 'create', 'Lifecycle');
  const user = await admin('users', 'create', tenant.id, '--name', 'Ada', '--email', 'ada@example.com', '--role', 'agent');
  t.like(await admin('users', 'deactivate', tenant.id, user.id), { id: user.id, active: false });
  t.like(await admin('users', 'reactivate', tenant.id, user.id), { id: user.id, active: true });

  const rotated = await admin('users', 'rotate-token', tenant.id, user.id);
  t.like(rotated, { id: user.id, active: true });
  t.regex(rotated.token, /^kb_ut_/);
  t.not(rotated.token, user.token);
  t.is(await api.tenancy.findUserByToken(user.token), undefined, 'the old token is gone');
  t.is((await api.tenancy.findUserByToken(rotated.token))?.id, user.id);
});

test('operators: rotate the key, disable and enable', async (t) => {
  const tenant = await admin('tenants', 'create', 'Operator keys');
  const operator = await admin('operators', 'create', tenant.id, '--name', 'Website');
  const rotated = await admin('operators', 'rotate-key', tenant.id, operator.id);
  t.regex(rotated.operatorKey, /^op_/);
  t.not(rotated.operatorKey, operator.operatorKey);
  t.is(typeof rotated.previousKeyExpiresAt, 'string');
  t.like(await admin('operators', 'disable', tenant.id, operator.id), { active: false, operatorKey: rotated.operatorKey });
  t.like(await admin('operators', 'enable', tenant.id, operator.id), { active: true });
});

test('websites and connectors: a tenant admin adds a website, reads it, asks a sync and removes it, with a user token', async (t) => {
  const { tenant, token, asUser } = await tenantAdmin('Crawled');
  const website = await asUser(
    'websites',
    'add',
    '--name',
    'Help site',
    '--start-url',
    'https://help.crawled.example/',
    '--sitemap',
    'https://help.crawled.example/sitemap.xml',
    '--exclude',
    '/private/',
    '--max-pages',
    '500',
  );
  t.like(website, {
    type: 'website',
    name: 'Help site',
    data: {
      startUrls: ['https://help.crawled.example/'],
      exclude: ['/private/'],
      maxPages: 500,
      concurrency: 2,
      requestsPerSecond: 2,
    },
  });
  t.like(await asUser('connectors', 'get', website.id), { id: website.id, type: 'website' });
  t.deepEqual(
    (await asUser('connectors', 'list')).connectors.map((c: { id: string }) => c.id),
    [website.id],
  );
  t.deepEqual(await asUser('connectors', 'sync', website.id, '--confirm-deletions'), { status: 'started' });
  t.is(await asUser('connectors', 'remove', website.id), undefined);
  t.deepEqual((await asUser('connectors', 'list')).connectors, []);

  // The admin token is not a user's: a tenant's routes refuse it, and a user command without a user token says so.
  const missing = await cli(['connectors', 'list', '--api-url', api.url], { ADMIN_TOKEN: api.adminToken });
  t.is(missing.code, 1);
  t.regex(missing.stderr, /^error: no user token: this command acts as a tenant's admin; set USER_TOKEN/);
  const badPattern = await cli(
    ['websites', 'add', '--name', 'x', '--start-url', 'https://a.example/', '--include', 'no-slash', '--api-url', api.url],
    {
      USER_TOKEN: token,
    },
  );
  t.is(badPattern.code, 1);
  t.regex(badPattern.stderr, /^error: invalid_payload: .*\n  \/data\/include\/0: must be a path pattern starting with \/ or \*/);
});

test('files: a tenant admin adds a files source, uploads a file twice, lists, reads and removes it, with a user token', async (t) => {
  const { tenant, token, asUser } = await tenantAdmin('Uploaded');
  const dir = await mkdtemp(join(tmpdir(), 'admin-cli-files-'));
  t.teardown(() => rm(dir, { recursive: true }));
  const guide = join(dir, 'returns.md');
  const text = '# Returns\n\nSend an item back within 30 days, in its box.\n';
  await writeFile(guide, text);

  const source = await asUser('files', 'add-source', '--name', 'Manuals');
  t.like(source, {
    type: 'files',
    name: 'Manuals',
    knowledgeBaseId: tenant.defaultKnowledgeBaseId,
    files: { queued: 0, reading: 0, ingested: 0, failed: 0, removing: 0 },
  });
  t.is(typeof source.data.maxFileBytes, 'number');

  // Two paths, one request each and in turn: the same bytes a second time change nothing.
  const uploaded = await cli(['files', 'upload', source.id, guide, guide, '--api-url', api.url], { USER_TOKEN: token });
  t.is(uploaded.code, 0, uploaded.stderr);
  const [first, again] = jsonValues(uploaded.stdout);
  t.like(first, {
    outcome: 'new',
    file: { name: 'returns.md', size: Buffer.byteLength(text), status: 'queued', ingested: null },
  });
  t.like(again, { outcome: 'unchanged', file: { id: first.file.id, sha256: first.file.sha256 } });

  t.deepEqual(
    (await asUser('files', 'list', source.id)).files.map((f: { id: string }) => f.id),
    [first.file.id],
  );
  t.like(await asUser('files', 'get', source.id, first.file.id), {
    id: first.file.id,
    name: 'returns.md',
    sha256: first.file.sha256,
  });
  t.like(await asUser('files', 'remove', source.id, first.file.id), { id: first.file.id, status: 'removing' });
  t.deepEqual((await asUser('files', 'list', source.id)).files, []);

  // A file refused is reported by its path, code and message; the next one is still sent, and the exit code says one failed.
  const empty = join(dir, 'empty.md');
  await writeFile(empty, '');
  const other = join(dir, 'shipping.md');
  await writeFile(other, '# Shipping\n\nParcels leave within two days.\n');
  const refused = await cli(['files', 'upload', source.id, empty, other, '--api-url', api.url], { USER_TOKEN: token });
  t.is(refused.code, 1);
  t.true(refused.stderr.startsWith(`error: ${empty}: empty_file: `), refused.stderr);
  t.like(jsonValues(refused.stdout), [{ outcome: 'new', file: { name: 'shipping.md' } }]);
  t.deepEqual(
    (await asUser('files', 'list', source.id)).files.map((f: { name: string }) => f.name),
    ['shipping.md'],
  );
});

test('an API error exits 1 and prints the code, message and details', async (t) => {
  const auth = ['--api-url', api.url];
  const env = { ADMIN_TOKEN: api.adminToken };
  const missing = await cli(['tenants', 'get', '00000000-0000-4000-8000-000000000000', ...auth], env);
  t.is(missing.code, 1);
  t.is(missing.stdout, '');
  t.regex(missing.stderr, /^error: not_found: /);

  const tenant = await admin('tenants', 'create', 'Invalid');
  const invalid = await cli(['api-keys', 'create', tenant.id, '--name', 'x', '--scope', 'everything', ...auth], env);
  t.is(invalid.code, 1);
  t.regex(invalid.stderr, /^error: invalid_payload: .*\n {2}\/scopes\/0: /);
});

test('a wrong admin token exits 1 with unauthorized', async (t) => {
  const result = await cli(['tenants', 'create', 'Nope', '--api-url', api.url], { ADMIN_TOKEN: 'adm_wrong' });
  t.is(result.code, 1);
  t.regex(result.stderr, /^error: unauthorized: /);
});

test('the token is never an argument: it comes from the environment or standard input', async (t) => {
  const onArgv = await cli(['tenants', 'create', 'Argv', '--api-url', api.url, '--token', api.adminToken]);
  t.is(onArgv.code, 2, 'ps would show it to every user of the machine');
  t.regex(onArgv.stderr, /^error: .*--token/);

  const piped = await cli(['tenants', 'create', 'Piped', '--api-url', api.url, '--token-stdin'], {}, `${api.adminToken}\n`);
  t.is(piped.code, 0, piped.stderr);
  t.like(piped.json(), { name: 'Piped' });
});

test('usage errors exit 2 with the usage text', async (t) => {
  for (const argv of [
    [],
    ['tenants', 'delete', 'x'],
    ['tenants', 'get'],
    ['tenants', 'get', 'x', '--scope', 'iq:read'],
    ['api-keys', 'create', 'x', '--name', 'ci'],
    ['users', 'list', 'x', '--bogus'],
    ['files', 'upload', 'x'],
  ]) {
    const result = await cli(argv);
    t.is(result.code, 2, argv.join(' '));
    t.regex(result.stderr, /^error: .+\n\nUsage: /, argv.join(' '));
  }

  const help = await cli(['--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /^Usage: .*\n[^]* {2}api-keys deactivate <tenantId> <keyId>\n/);
});

test('the token defaults to the local secrets file, and its absence is a clear error', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'admin-cli-'));
  t.teardown(() => rm(dataDir, { recursive: true }));
  const env = { API_URL: api.url, DATA_DIR: dataDir };

  const missing = await cli(['tenants', 'create', 'Local'], env);
  t.is(missing.code, 1);
  t.is(
    missing.stderr,
    `error: no admin token: set ADMIN_TOKEN, pipe it in with --token-stdin, or start the service once to create ${join(dataDir, 'secrets.json')}\n`,
  );

  await writeFile(join(dataDir, 'secrets.json'), JSON.stringify({ adminToken: api.adminToken }));
  const created = await cli(['tenants', 'create', 'Local'], env);
  t.is(created.code, 0);
  t.like(created.json(), { name: 'Local' });
});

test('an unreachable API exits 1 naming the address', async (t) => {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));

  const result = await cli(['tenants', 'create', 'Gone'], { PORT: String(port), ADMIN_TOKEN: 'adm_x' });
  t.is(result.code, 1);
  t.regex(result.stderr, new RegExp(`^error: cannot reach http://127\\.0\\.0\\.1:${port}: `));
});

test('the entry runs as a process, configured through the environment', async (t) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'tools/cli/admin.ts', 'tenants', 'create', 'Spawned'],
    {
      cwd: repoRoot,
      env: { ...process.env, API_URL: api.url, ADMIN_TOKEN: api.adminToken },
    },
  );
  const tenant = JSON.parse(stdout);
  t.like(tenant, { name: 'Spawned' });
  t.is((await api.admin('GET', `/admin/tenants/${tenant.id}`)).status, 200);
});
