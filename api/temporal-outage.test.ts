import test from 'ava';
import { createTenantWithKey, startTestApi, type TestApi } from '#testing/api.js';
import { chattingTenant } from '#testing/chat.js';
import { connectingTenant, uploadFile } from '#testing/connectors.js';
import { freePort } from '#testing/processes.js';

// An API whose Temporal address answers nothing: what needs a workflow fails with 503 naming
// Temporal, and nothing half-made is left behind to be mistaken for accepted work.
let api: TestApi;
test.before(async () => {
  api = await startTestApi({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` });
});
test.after.always(() => api?.close());

test('starting a conversation answers 503 naming Temporal and leaves no conversation behind', async (t) => {
  const { tenant, operator } = await chattingTenant(api);
  const response = await api.request('POST', '/chat/conversations', {
    body: {},
    headers: { 'x-operator-key': operator.operatorKey },
  });
  t.is(response.status, 503);
  t.is(response.body.error.code, 'unavailable');
  t.regex(response.body.error.message, /^Temporal is unavailable/);
  const conversations = await api.redis.zCard(`${api.config.redis.prefix}:tenant:${tenant.id}:conversations`);
  t.is(conversations, 0);
});

test('publishing an article answers 503 naming Temporal and the article is not kept', async (t) => {
  const { tenant, headers } = await createTenantWithKey(api, ['articles:read']);
  const kb = tenant.defaultKnowledgeBaseId as string;
  const response = await api.admin('POST', `/admin/knowledge-bases/${kb}/articles`, {
    title: 'Never half published',
    body: 'Text.',
    status: 'PUBLISHED',
  });
  t.is(response.status, 503);
  t.regex(response.body.error.message, /^Temporal is unavailable/);
  const read = await api.request('GET', `/public/knowledge-bases/${kb}/articles/by-slug/never-half-published`, { headers });
  t.is(read.status, 404);
  const draft = await api.admin('POST', `/admin/knowledge-bases/${kb}/articles`, { title: 'Draft', body: 'Text.' });
  t.is(draft.status, 201, 'a draft needs no workflow');
});

test('an upload answers 503 naming Temporal; it waits recorded, so the same upload sent again tells its workflow', async (t) => {
  // A files source has no schedule, so it is made without Temporal.
  const tenant = await connectingTenant(api);
  const source = await tenant.asAdmin('POST', '/connectors/files', { name: 'Manuals' });
  t.is(source.status, 201, JSON.stringify(source.body));
  const file = { name: 'notes.md', bytes: '# Notes\n\nRinse the filter.\n' };
  const response = await uploadFile(api, tenant.userHeaders, source.body.id, file);
  t.is(response.status, 503);
  t.regex(response.body.error.message, /^Temporal is unavailable/);
  const { body } = await tenant.asAdmin('GET', `/connectors/${source.body.id}/files`);
  t.like(body.files, [{ name: 'notes.md', status: 'queued' }]);
  const again = await uploadFile(api, tenant.userHeaders, source.body.id, file);
  t.is(again.status, 503, 'the upload still waiting is told again, not answered unchanged');
});
