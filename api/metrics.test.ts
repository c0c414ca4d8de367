import test from 'ava';
import { createLogger } from '#platform/logger.js';
import { serveMetrics, type MetricsEndpoint } from '#platform/metrics/endpoint.js';
import type { MetricsRegistry } from '#platform/metrics/registry.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { item, startIngestionStack, waitForJobs, type IngestionStack } from '#testing/ingestion.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { scrape, sumOf, type Sample } from '#testing/prometheus-text.js';
import { shopItems } from '#testing/shop-content.js';

/*
 * The metrics after real traffic through the real API and worker (Temporal, Weaviate, Redis): an
 * ingest, chat messages (an answer, a handoff), messaging webhooks (a customer's message, answered
 * and delivered; a forged delivery), a budget run out. Each process's registry is read through a
 * real /metrics endpoint, and no label anywhere holds an id of what the traffic touched.
 */

let platform: FakeMessagingPlatform;
let stack: IngestionStack;
const endpoints: MetricsEndpoint[] = [];
const silent = createLogger({ level: 'silent', name: 'metrics-test' });

test.before(async () => {
  platform = await startFakeMessagingPlatform();
  stack = await startIngestionStack({ GRAPH_API_BASE_URL: platform.url, CHAT_CONFIG_PER_MINUTE: '1' });
});
test.after.always(async () => {
  await Promise.all(endpoints.map((endpoint) => endpoint.close()));
  await stack?.close();
  await platform?.close();
});

async function endpointOf(registry: MetricsRegistry): Promise<string> {
  const endpoint = await serveMetrics(
    { contentType: registry.contentType, text: () => registry.metrics() },
    { host: '127.0.0.1', port: 0 },
    silent,
  );
  endpoints.push(endpoint!);
  return endpoint!.url;
}

test('the API and the worker count real traffic in bounded labels', async (t) => {
  const apiUrl = await endpointOf(stack.api.metrics);
  const workerUrl = await endpointOf(stack.workerMetrics()!);
  const before = await scrape(apiUrl);

  // Ingestion: accepted by the API, made searchable by the worker.
  const { chat, headers, tenant, kb, operator } = await chattingTenant(stack.api);
  const ingested = await stack.api.request('POST', '/ingest/bulk', { body: { items: [shopItems.returns] }, headers });
  const jobs = await waitForJobs(stack.api, headers, ingested.body.jobIds);
  t.deepEqual(
    [...jobs.values()].map((job) => job.status),
    ['searchable'],
  );

  // Chat: an answer, then a request for a person.
  const visitor = await chat.start();
  const answer = await chat.ask(visitor, 'How many days do I have to return an item?');
  t.like(answer.reply, { author: 'ai', outcome: 'answered' });
  const handoff = await chat.ask(visitor, 'get me a human');
  t.is(handoff.status, 200);

  // A budget run out: the widget's configuration, once a minute per address here.
  const config = () => fetch(`${stack.api.url}/chat/config`, { headers: { 'x-operator-key': operator.operatorKey } });
  await config();
  t.is((await config()).status, 429);

  // Messaging: a customer's message taken in, answered and delivered; a delivery with a wrong signature.
  const customer = await messagingTenant(stack.api, platform, [
    item('faq-1', { title: 'Opening hours', content: 'We open at 9 am every day.' }),
  ]);
  t.is((await customer.send(customer.text('When do you open?'))).status, 200);
  const hello = customer.text('hello');
  t.is((await customer.send(hello)).status, 200);
  t.is((await customer.send(hello)).status, 200);
  const forged = await fetch(customer.webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    body: JSON.stringify(customer.text('forged')),
  });
  t.is(forged.status, 401);
  await eventually(
    async () => customer.received().length,
    (sent) => sent >= 1,
    { timeoutMs: 60_000 },
  );

  const api = await scrape(apiUrl);
  const worker = await eventually(
    () => scrape(workerUrl),
    (samples) => sumOf(samples, 'kb_messaging_deliveries_total', { outcome: 'sent' }) >= 1,
    { timeoutMs: 30_000 },
  );

  // HTTP, by route template: moving.
  const ingests = { method: 'POST', route: '/ingest/bulk', status: '200' };
  t.true(sumOf(api, 'kb_http_requests_total', ingests) > sumOf(before, 'kb_http_requests_total', ingests));
  t.true(
    sumOf(api, 'kb_http_requests_total', {
      method: 'POST',
      route: '/chat/conversations/{conversationId}/messages',
      status: '200',
    }) >= 2,
  );
  t.true(sumOf(api, 'kb_http_request_duration_seconds_count', { route: '/ingest/bulk', status_class: '2xx' }) >= 1);
  t.true(sumOf(api, 'kb_rate_limit_refusals_total', { budget: 'config-address' }) >= 1);
  t.true(sumOf(api, 'kb_messaging_webhooks_total', { outcome: 'acknowledged' }) >= 2);
  t.true(sumOf(api, 'kb_messaging_webhooks_total', { outcome: 'bad_signature' }) >= 1);
  t.true(sumOf(api, 'kb_messaging_webhook_events_total', { kind: 'messages' }) >= 2);
  t.true(sumOf(api, 'kb_messaging_webhook_events_total', { kind: 'duplicates' }) >= 1, 'the copy delivered again');
  t.true(api.some((sample) => sample.name === 'kb_event_streams_open'));
  t.true(sumOf(api, 'kb_process_cpu_seconds_total') > 0);

  // Ingestion: queued in the API, the rest in the worker, and how long it took.
  t.true(sumOf(api, 'kb_ingest_job_transitions_total', { status: 'queued' }) >= 2);
  t.true(sumOf(worker, 'kb_ingest_job_transitions_total', { status: 'processing' }) >= 2);
  t.true(sumOf(worker, 'kb_ingest_job_transitions_total', { status: 'searchable' }) >= 2);
  t.true(sumOf(worker, 'kb_ingest_accepted_to_searchable_seconds_count') >= 2);

  // Answers, the handoff, the deliveries.
  t.true(sumOf(worker, 'kb_answer_duration_seconds_count', { outcome: 'answered', generator: 'extractive' }) >= 1);
  t.true(sumOf(worker, 'kb_handoffs_total', { channel: 'widget' }) >= 1);
  t.true(sumOf(worker, 'kb_messaging_deliveries_total', { outcome: 'sent' }) >= 1);

  // The conversation waiting for an agent is counted (Temporal's visibility catches up in a moment).
  const waiting = await eventually(
    async () => sumOf(await scrape(apiUrl), 'kb_handoffs_waiting'),
    (count) => count >= 1,
  );
  t.true(waiting >= 1);

  // Bounded labels: no id of anything the traffic touched, and routes are templates.
  const ids = [
    tenant.id,
    kb,
    operator.id,
    visitor.conversationId,
    ...ingested.body.jobIds,
    customer.connectionId,
    customer.customer,
    customer.webhookUrl.split('/').at(-1)!,
  ];
  const labelValues = (samples: Sample[]) => samples.flatMap((sample) => Object.values(sample.labels));
  for (const value of [...labelValues(api), ...labelValues(worker)]) {
    for (const id of ids) t.false(value.includes(id), `a label holds ${id}: ${value}`);
  }
  for (const sample of api.filter((s) => s.name === 'kb_http_requests_total')) {
    t.regex(sample.labels.route!, /^(\/[A-Za-z0-9_.{}-]*)+$|^unmatched$/, sample.labels.route);
  }
});
