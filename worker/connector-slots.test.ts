import test from 'ava';
import { chattingTenant } from '#testing/chat.js';
import { connectingTenant } from '#testing/connectors.js';
import { eventually } from '#testing/eventually.js';
import { startFakeCms } from '#testing/fake-cms.js';
import { startIngestionStack, waitForJobs } from '#testing/ingestion.js';
import { shopItems } from '#testing/shop-content.js';

/*
 * F14: connectors read tenants' sources, which may be slow or hostile. Their activities have a task
 * queue and worker slots of their own, so a source that holds every one of them never delays an answer.
 * The real API, worker, Temporal, Weaviate and Redis, and a site that never answers.
 */

/** As many connectors as the base task queue has worker slots: before F14 they filled it. */
const connectors = 16;
const connectorSlots = 2;

test('with every connector slot held by a site that never answers, a chat message is still answered', async (t) => {
  const stack = await startIngestionStack({ CONNECTOR_CONCURRENCY: String(connectorSlots), CHAT_VISITOR_PER_MINUTE: '1000' });
  const site = await startFakeCms();
  const removals: Array<() => Promise<unknown>> = [];
  t.teardown(async () => {
    for (const remove of removals) await remove().catch(() => undefined);
    await site.close();
    await stack.close();
  });

  const { chat, headers } = await chattingTenant(stack.api);
  const content = await stack.api.request('POST', '/ingest/bulk', { body: { items: [shopItems.returns] }, headers });
  const jobs = await waitForJobs(stack.api, headers, content.body.jobIds);
  t.deepEqual(
    [...jobs.values()].map((job) => job.status),
    ['searchable'],
  );

  site.addPosts(3);
  site.holdRequests();
  const owner = await connectingTenant(stack.api);
  for (let i = 0; i < connectors; i++) {
    const created = await owner.asAdmin('POST', '/connectors/cms', { name: `Stuck site ${i}`, data: { siteUrl: site.url } });
    t.is(created.status, 201, JSON.stringify(created.body));
    removals.push(() => owner.asAdmin('DELETE', `/connectors/${created.body.id}`));
  }
  // Every connector slot is taken by a page request the site holds open.
  await eventually(
    async () => site.held,
    (held) => held >= connectorSlots,
    { timeoutMs: 60_000, intervalMs: 100 },
  );

  const visitor = await chat.start();
  const answer = await chat.ask(visitor, 'How many days do I have to return an item?');
  t.is(answer.status, 200);
  t.false(
    answer.events.some((event) => event.event === 'reply_delayed'),
    'the answer did not wait for a connector slot',
  );
  t.like(answer.reply, { author: 'ai', outcome: 'answered' });
  t.regex(answer.reply.text, /30 days/);
});
