/**
 * The content gaps end to end, on the real API and worker: a question the AI cannot answer is
 * recorded, clustered by the operator's workflow and listed; marks, ranges, tenants and bad input.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createGapRecorder, type RecordGap } from '#insights/content-gaps/recorder.js';
import { createGapsClusteringClient } from '#insights/content-gaps/clustering-client.js';
import { createContentGapStore } from '#insights/content-gaps/store.js';
import { dayOf } from '#insights/day-counters.js';
import { createProcessEmbedders } from '#knowledge/embeddings/index.js';
import { createTemporalClient } from '#platform/temporal.js';
import { createUser } from '#testing/api.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, untilSearchable, type IngestionStack } from '#testing/ingestion.js';
import { shopItems } from '#testing/shop-content.js';
import type { Channel } from '#workflows/conversations/types.js';

let stack: IngestionStack;
let temporal: ReturnType<typeof createTemporalClient>;
let recordAt: (at: Date) => RecordGap;
test.before(async () => {
  stack = await startIngestionStack({ CONTENT_GAPS_SETTLE_SECONDS: '1' });
  const { config } = stack.api;
  temporal = createTemporalClient(config.temporal);
  const { queries } = await createProcessEmbedders(config.embeddings);
  const clustering = createGapsClusteringClient(temporal.client, config.temporal.taskQueue, 1);
  const store = createContentGapStore(stack.api.redis, config.redis.prefix);
  recordAt = (at) =>
    createGapRecorder({
      store,
      embedder: queries,
      recorded: clustering.changed,
      onError: (error) => {
        throw error;
      },
      now: () => at,
    });
});
test.after.always(async () => {
  await temporal?.close();
  await stack?.close();
});

/** A tenant with an operator, its admin and agent users. */
async function owner() {
  const tenant = await chattingTenant(stack.api);
  const admin = await createUser(stack.api, tenant.tenant.id, 'admin');
  const agent = await createUser(stack.api, tenant.tenant.id, 'agent', 'Bo');
  const operatorId = tenant.operator.id as string;
  const gaps = (query: string, headers = admin.headers) =>
    stack.api.request('GET', `/insights/content-gaps?operatorId=${operatorId}${query}`, { headers });
  const record = (
    question: string,
    at = new Date(),
    {
      reason = 'unknown',
      conversationId = randomUUID(),
      channel = 'widget',
    }: { reason?: 'unknown' | 'rated_down'; conversationId?: string; channel?: Channel } = {},
  ) =>
    recordAt(at)({
      tenantId: tenant.tenant.id,
      operatorId,
      knowledgeBaseId: tenant.kb,
      conversationId,
      messageId: 'm1.reply',
      question,
      locale: 'en',
      channel,
      reason,
      closestSources: [],
    });
  return { tenant, admin, agent, operatorId, gaps, record };
}

/** The listing once the clustering covered every gap recorded (`count` of them). */
const clustered = (read: () => Promise<{ status: number; body: any }>, check: (body: any) => boolean) =>
  eventually(read, (response) => response.status === 200 && response.body.pending === 0 && check(response.body), {
    timeoutMs: 30_000,
    intervalMs: 250,
  });

test('a question the AI could not answer is recorded and listed as a gap', async (t) => {
  const { tenant, gaps } = await owner();
  const { jobId } = (await stack.api.request('POST', '/ingest', { body: shopItems.returns, headers: tenant.headers })).body;
  await untilSearchable(stack.api, tenant.headers, [jobId]);
  const visitor = await tenant.chat.start();
  const asked = await tenant.chat.ask(visitor, 'Which telescope should I buy for watching Saturn?');
  t.is(asked.reply.outcome, 'unknown');

  const { body } = await clustered(
    () => gaps(''),
    (listing) => listing.clusters.length === 1,
  );
  t.like(body.clusters[0], {
    count: 1,
    representative: 'Which telescope should I buy for watching Saturn?',
    reasons: { unknown: 1, ratedDown: 0 },
    addressed: null,
  });
  t.truthy(body.clusteredAt);
});

test('a retried recording counts once', async (t) => {
  const { gaps, record } = await owner();
  const conversationId = randomUUID();
  t.true(await record('Do you sell spare parts for bicycles?', new Date(), { conversationId }));
  t.false(await record('Do you sell spare parts for bicycles?', new Date(), { conversationId }));
  const { body } = await clustered(
    () => gaps(''),
    (listing) => listing.clusters.length === 1,
  );
  t.is(body.clusters[0].count, 1);
});

test('a range counts only its days, most asked first', async (t) => {
  const { gaps, record } = await owner();
  await record('Do you ship to Norway?', new Date('2026-03-01T10:00:00Z'));
  await record('Can I have my order delivered to Norway?', new Date('2026-03-02T10:00:00Z'), { reason: 'rated_down' });
  await record('What are your opening hours on Sunday?', new Date('2026-03-02T11:00:00Z'));
  await record('Is your shop open on Sundays?', new Date('2026-03-03T11:00:00Z'));
  await record('When do you open on a Sunday?', new Date('2026-03-03T12:00:00Z'));

  const { body: all } = await clustered(
    () => gaps('&from=2026-03-01&to=2026-03-03'),
    (listing) => listing.clusters.length === 2,
  );
  t.deepEqual(
    all.clusters.map((cluster: any) => [cluster.representative.includes('Sunday') ? 'sunday' : 'norway', cluster.count]),
    [
      ['sunday', 3],
      ['norway', 2],
    ],
  );
  t.deepEqual(all.clusters[1].reasons, { unknown: 1, ratedDown: 1 });
  const firstDay = (await gaps('&from=2026-03-01&to=2026-03-01')).body;
  t.deepEqual(
    firstDay.clusters.map((cluster: any) => [cluster.id, cluster.count]),
    [[all.clusters[1].id, 1]],
  );
  t.deepEqual((await gaps('&from=2026-03-04&to=2026-03-31')).body.clusters, []);
});

test("a channel's read counts, ranks and shows that channel's questions alone; a cluster not asked there is not listed", async (t) => {
  const { gaps, record } = await owner();
  await record('Do you ship to Norway?', new Date('2026-03-01T10:00:00Z'));
  await record('Can I have my order delivered to Norway?', new Date('2026-03-02T10:00:00Z'), {
    reason: 'rated_down',
    channel: 'messaging',
  });
  await record('Is shipping to Norway available?', new Date('2026-03-03T09:00:00Z'), { channel: 'messaging' });
  await record('What are your opening hours on Sunday?', new Date('2026-03-02T11:00:00Z'));
  await record('Is your shop open on Sundays?', new Date('2026-03-03T11:00:00Z'));
  const range = '&from=2026-03-01&to=2026-03-03';
  const named = (listing: any) =>
    listing.clusters.map((cluster: any) => [cluster.representative.includes('Sunday') ? 'sunday' : 'norway', cluster.count]);

  const { body: all } = await clustered(
    () => gaps(range),
    (listing) => listing.clusters.length === 2,
  );
  t.deepEqual(named(all), [
    ['norway', 3],
    ['sunday', 2],
  ]);
  const norway = all.clusters[0];
  t.like(norway, {
    reasons: { unknown: 2, ratedDown: 1 },
    firstAskedAt: '2026-03-01T10:00:00.000Z',
    lastAskedAt: '2026-03-03T09:00:00.000Z',
  });
  t.is(norway.examples.length, 3);

  const widget = (await gaps(`${range}&channel=widget`)).body;
  t.deepEqual(named(widget), [
    ['sunday', 2],
    ['norway', 1],
  ]);
  t.like(widget.clusters[1], {
    id: norway.id,
    reasons: { unknown: 1, ratedDown: 0 },
    examples: ['Do you ship to Norway?'],
    firstAskedAt: '2026-03-01T10:00:00.000Z',
    lastAskedAt: '2026-03-01T10:00:00.000Z',
  });

  const messaging = (await gaps(`${range}&channel=messaging`)).body;
  t.deepEqual(named(messaging), [['norway', 2]], 'the cluster asked only on the widget is not listed');
  t.deepEqual(messaging.clusters[0], {
    ...norway,
    count: 2,
    reasons: { unknown: 1, ratedDown: 1 },
    examples: ['Is shipping to Norway available?', 'Can I have my order delivered to Norway?'],
    firstAskedAt: '2026-03-02T10:00:00.000Z',
    lastAskedAt: '2026-03-03T09:00:00.000Z',
  });
  t.deepEqual(named((await gaps('&from=2026-03-03&to=2026-03-03&channel=messaging')).body), [['norway', 1]]);
  t.deepEqual((await gaps('&from=2026-03-01&to=2026-03-01&channel=messaging')).body.clusters, []);
  // Every channel's read adds up to the read of both.
  for (const cluster of all.clusters) {
    const on = (listing: any) => listing.clusters.find((each: any) => each.id === cluster.id)?.count ?? 0;
    t.is(on(widget) + on(messaging), cluster.count);
  }
});

test('a close new question joins an addressed cluster and counts as asked since; unmarking ends it', async (t) => {
  const { gaps, record, operatorId, admin } = await owner();
  await record('Do you ship to Norway?', new Date('2026-03-01T10:00:00Z'));
  await record('Can I have my order delivered to Norway?', new Date('2026-03-02T10:00:00Z'));
  const range = `&from=2026-03-01&to=${dayOf(new Date())}`;
  const { body: before } = await clustered(
    () => gaps(range),
    (listing) => listing.clusters.length === 1,
  );
  const clusterId = before.clusters[0].id;
  const path = `/insights/content-gaps/${clusterId}/addressed?operatorId=${operatorId}`;

  const marked = await stack.api.request('POST', path, {
    body: { articleId: 'shipping-norway', note: 'New article on Norway' },
    headers: admin.headers,
  });
  t.is(marked.status, 200);
  t.like(marked.body.addressed, { articleId: 'shipping-norway', sourceKey: null, note: 'New article on Norway', askedSince: 0 });
  t.deepEqual(marked.body.addressed.by, { userId: admin.id, name: admin.name });

  await record('Is delivery to Norway possible?');
  await record('Can I book a personal styling appointment?');
  const { body: after } = await clustered(
    () => gaps(range),
    (listing) => listing.clusters.length === 2,
  );
  const norway = after.clusters.find((cluster: any) => cluster.id === clusterId);
  t.is(norway.count, 3);
  t.is(norway.addressed.askedSince, 1);
  t.is(norway.addressed.articleId, 'shipping-norway');

  t.is((await stack.api.request('DELETE', path, { headers: admin.headers })).status, 204);
  const unmarked = (await gaps(range)).body.clusters.find((cluster: any) => cluster.id === clusterId);
  t.is(unmarked.addressed, null);
  const again = await stack.api.request('DELETE', path, { headers: admin.headers });
  t.is(again.status, 404);
  t.is(again.body.error.code, 'not_found');
});

test("another tenant's admin finds no such operator; an agent may not look", async (t) => {
  const { operatorId, agent } = await owner();
  const other = await owner();
  const elsewhere = await stack.api.request('GET', `/insights/content-gaps?operatorId=${operatorId}`, {
    headers: other.admin.headers,
  });
  t.is(elsewhere.status, 404);
  t.is(elsewhere.body.error.code, 'not_found');
  const mark = await stack.api.request('POST', `/insights/content-gaps/x/addressed?operatorId=${operatorId}`, {
    body: { articleId: 'a' },
    headers: other.admin.headers,
  });
  t.is(mark.status, 404);
  const asAgent = await stack.api.request('GET', `/insights/content-gaps?operatorId=${operatorId}`, { headers: agent.headers });
  t.is(asAgent.status, 403);
  t.is(asAgent.body.error.code, 'forbidden');
});

test('bad ranges, unknown operators and clusters, and bad marks are refused in the one error shape', async (t) => {
  const { gaps, operatorId, admin } = await owner();
  const refused = async (response: Promise<{ status: number; body: any }>, status: number, code: string) => {
    const { status: got, body } = await response;
    t.is(got, status, JSON.stringify(body));
    t.is(body.error.code, code);
    t.is(typeof body.error.message, 'string');
  };
  await refused(gaps('&from=2026-02-30'), 400, 'invalid_payload');
  await refused(gaps('&from=yesterday'), 400, 'invalid_payload');
  await refused(gaps('&from=2026-03-02&to=2026-03-01'), 400, 'invalid_payload');
  await refused(gaps('&from=2025-01-01&to=2026-01-02'), 400, 'invalid_payload');
  await refused(gaps('&limit=0'), 400, 'invalid_payload');
  for (const channel of ['email', 'Widget', '']) {
    const { status, body } = await gaps(`&channel=${channel}`);
    t.is(status, 400, channel);
    t.is(body.error.code, 'invalid_payload');
    t.true(
      body.error.details.some((detail: { path: string }) => detail.path === '/channel'),
      JSON.stringify(body.error.details),
    );
  }
  t.is((await gaps('&from=2025-01-02&to=2026-01-02')).status, 200);
  await refused(stack.api.request('GET', '/insights/content-gaps', { headers: admin.headers }), 400, 'invalid_payload');
  await refused(
    stack.api.request('GET', `/insights/content-gaps?operatorId=${randomUUID()}`, { headers: admin.headers }),
    404,
    'not_found',
  );

  const mark = (body: unknown, clusterId = 'no-such-cluster') =>
    stack.api.request('POST', `/insights/content-gaps/${clusterId}/addressed?operatorId=${operatorId}`, {
      body,
      headers: admin.headers,
    });
  await refused(mark({}), 400, 'invalid_payload');
  await refused(mark({ note: 'Wrote something' }), 400, 'invalid_payload');
  await refused(mark({ articleId: 5 }), 400, 'invalid_payload');
  await refused(mark({ sourceKey: 'no-slash' }), 400, 'invalid_payload');
  await refused(mark({ articleId: 'a', note: 'x'.repeat(501) }), 400, 'invalid_payload');
  await refused(mark({ articleId: 'a', colour: 'red' }), 400, 'invalid_payload');
  await refused(mark({ articleId: 'a' }), 404, 'not_found');
});
