import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { eventPayloads } from '#api/schemas/event-endpoints.js';
import { createUser, type TestApi } from '#testing/api.js';
import { chatClient } from '#testing/chat.js';
import { connectingTenant, uploadFile } from '#testing/connectors.js';
import { eventually } from '#testing/eventually.js';
import { startFakeCms } from '#testing/fake-cms.js';
import { startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { startFakeEventReceiver, verifyDelivery, type FakeEventReceiver } from '#testing/fake-event-receiver.js';
import { ingestAndWait, item, startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { createTemporalClient, type TemporalClient } from '#platform/temporal.js';
import { secretBoxFromConfig } from '#platform/secret-box.js';
import { createConversationActivities } from '#activities/conversations/conversation-activities.js';
import { createConversationCounts } from '#insights/conversation-counts.js';
import { createChannelState } from '#messaging/channel-state.js';
import { createAnswerBudget } from '#conversations/answer-budget.js';
import { createEventPublisher } from '#conversations/events.js';
import { createConversationRecords } from '#conversations/records.js';
import { createTranscript } from '#conversations/transcript.js';
import { createEventDeliveryActivities } from '#activities/outbound-events/deliver-event.js';
import { createOutboundHttp } from '#platform/outbound/outbound-http.js';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createDeliveryLog } from './deliveries.js';
import { createEventEmitter } from './emitter.js';
import { createEventEndpoints } from './endpoints.js';
import { eventIdOf, eventTypes, type EventType, type NewEvent } from './event-types.js';
import { deliverySettingsOf } from './settings.js';
import { eventEndpointWorkflowId } from '#workflows/ids.js';

/*
 * Outbound events end to end, all real: the API, a worker, Temporal and Redis, and a local receiver
 * that verifies signatures the way docs/outbound-events.md tells receivers to. Retries wait at most
 * 1 s here (EVENT_DELIVERY_MAX_INTERVAL_SECONDS); the give-up test emits with a horizon of seconds.
 * Serial: one test stops and restarts the worker.
 */

let stack: IngestionStack;
let temporal: TemporalClient;
let platform: FakeMessagingPlatform;
const receivers: FakeEventReceiver[] = [];

test.before(async () => {
  platform = await startFakeMessagingPlatform();
  stack = await startIngestionStack({
    GRAPH_API_BASE_URL: platform.url,
    EVENT_DELIVERY_MAX_INTERVAL_SECONDS: '1',
    CHAT_VISITOR_PER_MINUTE: '100000',
    CHAT_CONVERSATIONS_PER_HOUR: '100000',
  });
  temporal = createTemporalClient(stack.api.config.temporal);
});
test.after.always(async () => {
  await Promise.allSettled(receivers.map((receiver) => receiver.close()));
  await temporal?.close();
  await stack?.close();
  await platform?.close();
});

const api = (): TestApi => stack.api;

async function receiver(): Promise<FakeEventReceiver> {
  const started = await startFakeEventReceiver();
  receivers.push(started);
  return started;
}

/** A tenant with an admin, and an endpoint of theirs at the receiver for `types`. */
async function subscribedTenant(target: FakeEventReceiver, types: readonly EventType[] = eventTypes) {
  const tenant = await connectingTenant(api());
  const created = await tenant.asAdmin('POST', '/integrations/event-endpoints', {
    url: `${target.url}/events`,
    eventTypes: types,
  });
  if (created.status !== 201) throw new Error(`endpoint not created: ${JSON.stringify(created.body)}`);
  const { signingSecret, id } = created.body as { signingSecret: string; id: string };
  return { ...tenant, endpointId: id, signingSecret };
}

/** Emits as the activities do, through Temporal, with the stack's settings or the test's own. */
function emitter(settings: Partial<ReturnType<typeof deliverySettingsOf>> = {}) {
  const { config } = api();
  return createEventEmitter({
    endpoints: createEventEndpoints(api().redis, config.redis.prefix, secretBoxFromConfig(config)),
    temporal: temporal.client,
    taskQueue: config.temporal.taskQueue,
    settings: { ...deliverySettingsOf(config.events), ...settings },
  });
}

const fact = (name: string): NewEvent => ({
  id: eventIdOf('message.created', name),
  type: 'message.created',
  data: { name },
});

const deliveredIds = (target: FakeEventReceiver) => target.delivered().map((event) => event.id as string);
const attemptedIds = (target: FakeEventReceiver) => target.received.map((delivery) => JSON.parse(delivery.body).id as string);

function assertEachOnceInOrder(t: ExecutionContext, target: FakeEventReceiver, events: NewEvent[]) {
  t.deepEqual(
    deliveredIds(target),
    events.map((event) => event.id),
    'each delivered once, in the order emitted',
  );
  // Attempts never run ahead: no event is tried before the one before it was delivered.
  const order = attemptedIds(target).map((id) => events.findIndex((event) => event.id === id));
  t.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
    'attempts in order',
  );
}

test.serial('each event type arrives, signed and verifiable, with its documented payload', async (t) => {
  const target = await receiver();
  const tenant = await subscribedTenant(target);
  const tenantId = tenant.tenant.id;

  // A widget conversation: created, messages, handed off, taken over, closed.
  const operator = (await api().admin('POST', `/admin/tenants/${tenantId}/operators`, { name: 'Northwind' })).body;
  const chat = chatClient(api().url, operator.operatorKey);
  const visitor = await chat.start();
  const asked = await chat.ask(visitor, 'Do you ship to Iceland?');
  t.is(asked.status, 200);
  const handoff = await api().request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
    headers: visitor.headers,
  });
  t.is(handoff.status, 202);
  const { headers: agent } = await createUser(api(), tenantId, 'agent', 'Linus');
  const conversationPath = `/agent/conversations/${visitor.conversationId}`;
  const agents = (await api().request('GET', '/agent/agents', { headers: agent })).body.agents as Array<{
    id: string;
    name: string;
  }>;
  const linus = agents.find((user) => user.name === 'Linus')!;
  const assign = await api().request('POST', `${conversationPath}/assign`, { headers: agent, body: { agentId: linus.id } });
  t.is(assign.status, 200);
  t.is((await api().request('POST', `${conversationPath}/take-over`, { headers: agent })).status, 200);
  t.is((await api().request('POST', `${conversationPath}/close`, { headers: agent })).status, 200);

  // A second conversation, routed to a team whose first-response target runs out at once: an SLA breach.
  const team = await tenant.asAdmin('POST', '/teams', { name: 'Support', memberIds: [] });
  t.is(team.status, 201);
  const stored = (await api().tenancy.getTeam(tenantId, team.body.team.id))!;
  await api().tenancy.updateTeam(stored, {
    sla: { firstResponseMinutes: 1 / 60, nextResponseMinutes: null, resolutionMinutes: null },
  });
  t.is((await tenant.asAdmin('PUT', '/team-routing', { rules: [], defaultTeamId: stored.id })).status, 200);
  const late = await chat.start();
  const lateHandoff = await api().request('POST', `/chat/conversations/${late.conversationId}/handoff`, {
    headers: late.headers,
  });
  t.is(lateHandoff.status, 202);

  // An item that fails for good, and a connector whose site refuses it.
  const job = await ingestAndWait(
    api(),
    tenant.headers,
    item('ghost', { title: 'Ghost', content: 'x' }, { options: { metadataOnly: true } }),
  );
  t.is(job.status, 'failed');
  const cms = await startFakeCms({ auth: { username: 'connector', password: 'abcd efgh ijkl mnop' } });
  t.teardown(() => cms.close());
  const connector = await tenant.asAdmin('POST', '/connectors/cms', { name: 'Blog', data: { siteUrl: cms.url } });
  t.is(connector.status, 201, JSON.stringify(connector.body));
  t.teardown(async () => void (await tenant.asAdmin('DELETE', `/connectors/${connector.body.id}`)));
  // And one whose site answers: its run finishes.
  const openCms = await startFakeCms();
  t.teardown(() => openCms.close());
  openCms.addPosts(1);
  const finishing = await tenant.asAdmin('POST', '/connectors/cms', { name: 'News', data: { siteUrl: openCms.url } });
  t.is(finishing.status, 201, JSON.stringify(finishing.body));
  t.teardown(async () => void (await tenant.asAdmin('DELETE', `/connectors/${finishing.body.id}`)));

  // A files source: one file taken in, one refused.
  const files = await tenant.asAdmin('POST', '/connectors/files', { name: 'Manuals' });
  t.is(files.status, 201, JSON.stringify(files.body));
  t.teardown(async () => void (await tenant.asAdmin('DELETE', `/connectors/${files.body.id}`)));
  for (const file of [
    { name: 'returns.md', bytes: '# Returns\n\nSend it back within 30 days.\n' },
    { name: 'report.pdf', bytes: 'Plain words, not a PDF.' },
  ]) {
    t.is((await uploadFile(api(), tenant.userHeaders, files.body.id, file)).status, 202);
  }
  const ofFile = (type: EventType) => target.delivered().filter((event) => event.type === type && event.data.file);

  await eventually(
    async () => new Set(target.delivered().map((event) => event.type)),
    (types) =>
      eventTypes.every((type) => types.has(type)) &&
      ofFile('connector.sync_finished').length > 0 &&
      ofFile('connector.sync_failed').length > 0,
    { timeoutMs: 90_000, intervalMs: 250 },
  );
  const events = target.delivered();
  t.deepEqual([...new Set(events.map((event) => event.type))].sort(), [...eventTypes].sort());
  for (const delivery of target.received) {
    t.true(verifyDelivery(delivery, tenant.signingSecret), 'the signature verifies with the endpoint secret');
    t.false(verifyDelivery(delivery, `${tenant.signingSecret}x`), 'and with no other');
    t.false(verifyDelivery({ ...delivery, body: delivery.body.replace('"data"', '"data" ') }, tenant.signingSecret));
    t.is(delivery.headers['content-type'], 'application/json');
    const event = JSON.parse(delivery.body);
    t.is(delivery.headers['x-event-id'], event.id);
    t.is(delivery.headers['x-event-type'], event.type);
    t.is(event.tenantId, tenantId);
    assertMatchesSchema(t, eventPayloads[event.type as EventType], event);
  }
  t.is(new Set(events.map((event) => event.id)).size, events.length, 'no event delivered twice');

  const byType = (type: EventType) => events.filter((event) => event.type === type);
  t.is(byType('conversation.created')[0].data.conversationId, visitor.conversationId);
  t.like(byType('conversation.agent_assigned')[0].data, { status: 'agent', agent: { name: 'Linus' } });
  t.like(byType('conversation.assigned')[0].data, {
    teamId: null,
    assignee: { name: 'Linus' },
    reason: 'manual',
    by: { name: 'Linus' },
  });
  t.true(
    byType('message.created').some(
      (event) => event.data.message.text === 'Do you ship to Iceland?' && event.data.message.author === 'visitor',
    ),
  );
  t.true(byType('message.created').some((event) => event.data.message.author === 'ai'));
  t.like(byType('ingestion.failed')[0].data, { externalId: 'ghost', error: { code: 'not_indexed' } });
  const cmsFailure = byType('connector.sync_failed').find((event) => !event.data.file);
  t.like(cmsFailure.data, { connectorId: connector.body.id, kind: 'cms' });
  t.regex(cmsFailure.data.error, /401/);
  t.like(byType('connector.sync_finished').find((event) => !event.data.file).data, {
    connectorId: finishing.body.id,
    kind: 'cms',
    mode: 'full',
    sent: 1,
  });
  t.like(ofFile('connector.sync_finished')[0]!.data, {
    connectorId: files.body.id,
    kind: 'files',
    sent: 1,
    file: { name: 'returns.md', change: 'ingested' },
  });
  t.like(ofFile('connector.sync_failed')[0]!.data, { connectorId: files.body.id, kind: 'files', file: { name: 'report.pdf' } });
  t.regex(ofFile('connector.sync_failed')[0]!.data.error, /report\.pdf is not a PDF/);
  // The conversation's own events keep the order their facts had.
  const lifecycle = events
    .filter((event) => event.data.conversationId === visitor.conversationId && event.type !== 'message.created')
    .map((event) => event.type);
  t.deepEqual(lifecycle, [
    'conversation.created',
    'conversation.handed_off',
    'conversation.assigned',
    'conversation.agent_assigned',
    'conversation.closed',
  ]);

  // Another tenant's endpoint heard nothing of it.
  t.true(events.every((event) => event.tenantId === tenantId));
});

test.serial('a messaging customer’s first message creates the conversation: both arrive, in that order', async (t) => {
  const target = await receiver();
  const business = await messagingTenant(api(), platform);
  const { headers } = await createUser(api(), business.tenant.tenant.id, 'admin', 'Ada');
  const created = await api().request('POST', '/integrations/event-endpoints', {
    headers,
    body: { url: `${target.url}/events`, eventTypes: ['conversation.created', 'message.created'] },
  });
  t.is(created.status, 201);
  const sent = await business.send(business.text('Hello, is my order on its way?'));
  t.is(sent.status, 200);

  const delivered = await eventually(
    async () => target.delivered(),
    (events) => events.some((event) => event.data.message?.author === 'ai'),
    { timeoutMs: 60_000 },
  );
  const conversationId = await business.conversationId();
  t.like(delivered[0], { type: 'conversation.created', data: { conversationId, channel: 'messaging' } });
  t.like(delivered[1], {
    type: 'message.created',
    data: { conversationId, channel: 'messaging', message: { author: 'visitor', text: 'Hello, is my order on its way?' } },
  });
  for (const delivery of target.received) t.true(verifyDelivery(delivery, created.body.signingSecret));
});

test.serial(
  'a receiver that fails, then recovers, gets every event once and in order; the deliveries list each attempt',
  async (t) => {
    const target = await receiver();
    const bystander = await receiver();
    const tenant = await subscribedTenant(target, ['message.created']);
    await subscribedTenant(bystander, ['message.created']); // another tenant's endpoint
    target.answerWith((index) => (index < 3 ? 500 : 204));
    const events = ['one', 'two', 'three', 'four'].map((name) => fact(`${randomUUID()}-${name}`));
    const emit = emitter();
    for (const event of events) await emit.emit(tenant.tenant.id, event);

    await eventually(
      async () => deliveredIds(target),
      (ids) => ids.length >= events.length,
      { timeoutMs: 60_000 },
    );
    assertEachOnceInOrder(t, target, events);
    t.deepEqual(
      target.received.slice(0, 4).map((delivery) => delivery.status),
      [500, 500, 500, 204],
    );
    t.is(bystander.received.length, 0, "another tenant's endpoint hears nothing");

    const listed = await tenant.asAdmin('GET', `/integrations/event-endpoints/${tenant.endpointId}/deliveries`);
    t.is(listed.status, 200);
    const first = listed.body.deliveries.filter((attempt: any) => attempt.eventId === events[0]!.id).reverse();
    t.deepEqual(
      first.map(({ attempt, outcome, statusCode }: any) => ({ attempt, outcome, statusCode })),
      [
        { attempt: 1, outcome: 'failed', statusCode: 500 },
        { attempt: 2, outcome: 'failed', statusCode: 500 },
        { attempt: 3, outcome: 'failed', statusCode: 500 },
        { attempt: 4, outcome: 'delivered', statusCode: 204 },
      ],
    );
    t.is(first[0].error, 'answered 500 Internal Server Error');
    t.is(listed.body.deliveries.length, 7, 'newest first, every attempt');
    t.is(listed.body.deliveries[0].eventId, events.at(-1)!.id);
  },
);

test.serial('the same event emitted again (an activity retried) is delivered once', async (t) => {
  const target = await receiver();
  const tenant = await subscribedTenant(target, ['message.created']);
  const emit = emitter();
  const [first, second, marker] = ['a', 'b', 'marker'].map((name) => fact(`${randomUUID()}-${name}`));
  await emit.emit(tenant.tenant.id, first!);
  await emit.emit(tenant.tenant.id, first!);
  await Promise.all([emit.emit(tenant.tenant.id, second!), emit.emit(tenant.tenant.id, second!)]);
  await eventually(
    async () => deliveredIds(target),
    (ids) => ids.length >= 2,
  );
  await emit.emit(tenant.tenant.id, first!); // long after it was delivered
  await emit.emit(tenant.tenant.id, marker!);
  await eventually(
    async () => deliveredIds(target),
    (ids) => ids.includes(marker!.id),
  );
  t.deepEqual(deliveredIds(target), [first!.id, second!.id, marker!.id]);
});

test.serial('an activity run twice (a retry after its write) emits its event once', async (t) => {
  const target = await receiver();
  const tenant = await subscribedTenant(target, ['message.created']);
  const { redis, config } = api();
  const events = createEventPublisher(redis, config.redis.prefix);
  const activities = createConversationActivities({
    records: createConversationRecords(redis, config.redis.prefix),
    transcript: createTranscript(redis, config.redis.prefix),
    events,
    answerQuestion: () => Promise.reject(new Error('no question is asked here')),
    answerBudget: createAnswerBudget(redis, { prefix: config.redis.prefix, perDay: 10 }),
    counts: createConversationCounts(redis, config.redis.prefix),
    channel: createChannelState(redis, config.redis.prefix, events),
    outboundEvents: emitter(),
  });
  const conversation = {
    conversationId: randomUUID(),
    tenantId: tenant.tenant.id,
    operatorId: randomUUID(),
    knowledgeBaseId: tenant.kb,
    channel: 'widget' as const,
    locale: 'en' as const,
  };
  const reply = { conversation, agent: { agentId: 'u-1', name: 'Linus' }, messageId: randomUUID(), text: 'On its way.' };
  await activities.recordAgentMessage(reply);
  await activities.recordAgentMessage(reply);
  const marker = { ...reply, messageId: randomUUID(), text: 'Anything else?' };
  await activities.recordAgentMessage(marker);

  await eventually(
    async () => target.delivered(),
    (events) => events.some((event) => event.data.message.id === marker.messageId),
  );
  t.deepEqual(
    target.delivered().map((event) => event.data.message.id),
    [reply.messageId, marker.messageId],
  );
});

test.serial(
  'an event failing past the horizon is recorded with its last error, and its endpoint disabled until re-enabled',
  async (t) => {
    const target = await receiver();
    const tenant = await subscribedTenant(target, ['message.created']);
    target.answerWith(() => 503);
    const emit = emitter({ horizonMs: 4_000, maxIntervalMs: 1_000 });
    const [doomed, behind] = ['doomed', 'behind'].map((name) => fact(`${randomUUID()}-${name}`));
    await emit.emit(tenant.tenant.id, doomed!);
    await emit.emit(tenant.tenant.id, behind!);

    const path = `/integrations/event-endpoints/${tenant.endpointId}`;
    const { body: endpoint } = await eventually(
      () => tenant.asAdmin('GET', path),
      ({ body }) => body.status === 'disabled',
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    t.is(endpoint.status, 'disabled');
    t.true(endpoint.disabledReason.includes(doomed!.id), endpoint.disabledReason);
    t.true(endpoint.disabledReason.endsWith('answered 503 Service Unavailable'), endpoint.disabledReason);

    const { body } = await eventually(
      () => tenant.asAdmin('GET', `${path}/deliveries`),
      ({ body }) => body.deliveries.some((attempt: any) => attempt.eventId === behind!.id),
    );
    const [skipped, gaveUp, lastFailure] = body.deliveries;
    t.like(skipped, { eventId: behind!.id, outcome: 'skipped', attempt: 0, statusCode: null });
    t.like(gaveUp, { eventId: doomed!.id, outcome: 'gave_up', statusCode: null });
    t.regex(gaveUp.error, /^Gave up after \d+ attempts; last error: answered 503 Service Unavailable$/);
    t.like(lastFailure, { eventId: doomed!.id, outcome: 'failed', statusCode: 503 });
    t.true(lastFailure.attempt >= 2, 'it was retried');
    t.true(
      attemptedIds(target).every((id) => id === doomed!.id),
      'nothing after it was sent',
    );

    // New events for a disabled endpoint are not even queued; re-enabled, the next ones arrive.
    const enabled = await tenant.asAdmin('POST', `${path}/enable`);
    t.like(enabled.body, { status: 'active', disabledReason: null, disabledAt: null });
    target.answerWith(() => 204);
    const after = fact(`${randomUUID()}-after`);
    await emit.emit(tenant.tenant.id, after);
    await eventually(
      async () => deliveredIds(target),
      (ids) => ids.length > 0,
    );
    t.deepEqual(deliveredIds(target), [after.id]);
  },
);

/** An envelope's weight in the backlog: the characters of its JSON, as the sequencer counts them. */
const envelopeSize = (tenantId: string, event: NewEvent) =>
  JSON.stringify({ ...event, tenantId, createdAt: new Date().toISOString() }).length;

const backlogOverflows = test.macro(
  async (t, capOf: (envelopeSize: number) => { backlogMaxEvents: number } | { backlogMaxBytes: number }, fitting: number) => {
    const target = await receiver();
    const tenant = await subscribedTenant(target, ['message.created']);
    const tenantId = tenant.tenant.id;
    target.answerWith(() => 503);
    // `fitting` events fit in the backlog (under way or queued); the last is one too many.
    const events = Array.from({ length: fitting + 1 }, (_, index) => fact(`${randomUUID()}-${index}`));
    const cap = capOf(envelopeSize(tenantId, events[0]!)); // the envelopes here are all of one size
    const capText = 'backlogMaxEvents' in cap ? `${cap.backlogMaxEvents} events` : `${cap.backlogMaxBytes} characters`;
    // A horizon of an hour: only the cap can stop this.
    const emit = emitter({ horizonMs: 3_600_000, maxIntervalMs: 1_000, idleMs: 2_000, ...cap });
    await emit.emit(tenantId, events[0]!);
    await eventually(
      () => tenant.asAdmin('GET', `/integrations/event-endpoints/${tenant.endpointId}/deliveries`),
      ({ body }) => body.deliveries.length > 0,
    );
    for (const event of events.slice(1)) await emit.emit(tenantId, event);

    const path = `/integrations/event-endpoints/${tenant.endpointId}`;
    const { body: endpoint } = await eventually(
      () => tenant.asAdmin('GET', path),
      ({ body }) => body.status === 'disabled',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    t.is(
      endpoint.disabledReason,
      `More events waited than the backlog allows (${capText}) while event ${events[0]!.id} (message.created) kept failing: answered 503 Service Unavailable`,
    );

    // The sequencer ends by itself once its deliveries under way found the endpoint disabled.
    const sequencer = temporal.client.workflow.getHandle(eventEndpointWorkflowId(tenantId, tenant.endpointId));
    await eventually(
      async () => (await sequencer.describe()).status.name,
      (status) => status !== 'RUNNING',
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    t.is((await sequencer.describe()).status.name, 'COMPLETED');

    const { body } = await tenant.asAdmin('GET', `${path}/deliveries`);
    const outcomesOf = (id: string) =>
      body.deliveries
        .filter((attempt: any) => attempt.eventId === id)
        .reverse()
        .map((attempt: any) => attempt.outcome);
    for (const event of events.slice(1)) t.deepEqual(outcomesOf(event.id), ['skipped'], event.data.name as string);
    const head = outcomesOf(events[0]!.id);
    t.true(head.length >= 2 && head.slice(0, -1).every((outcome: string) => outcome === 'failed'), head.join());
    t.is(head.at(-1), 'skipped', 'the failing event too, at its next attempt');
    t.true(
      attemptedIds(target).every((id) => id === events[0]!.id),
      'only the failing event was ever sent',
    );

    // Re-enabled, the next events arrive, in order.
    t.like((await tenant.asAdmin('POST', `${path}/enable`)).body, { status: 'active' });
    target.answerWith(() => 204);
    const after = ['a', 'b', 'c'].map((name) => fact(`${randomUUID()}-after-${name}`));
    for (const event of after) await emit.emit(tenantId, event);
    await eventually(
      async () => deliveredIds(target),
      (ids) => ids.length >= after.length,
      { timeoutMs: 30_000 },
    );
    assertEachOnceInOrder(t, target, after);
  },
);

test.serial(
  'a backlog past its cap of events behind a failing event disables the endpoint at once, skips the queue, and the sequencer ends cleanly',
  backlogOverflows,
  () => ({ backlogMaxEvents: 5 }),
  5,
);

test.serial(
  'a backlog past its cap of characters does the same',
  backlogOverflows,
  (size) => ({ backlogMaxBytes: Math.floor(size * 3.5) }), // three envelopes fit, not four
  3,
);

test.serial(
  'without the private-network allowance (production), a delivery to an internal address is refused, and says so',
  async (t) => {
    const target = await receiver();
    const tenant = await subscribedTenant(target, ['message.created']);
    const { redis, config } = api();
    const http = createOutboundHttp({ allowedNetworks: [], httpsOnly: false, maxResponseBytes: 64 * 1024 });
    t.teardown(() => http.close());
    const activities = createEventDeliveryActivities({
      endpoints: createEventEndpoints(redis, config.redis.prefix, secretBoxFromConfig(config)),
      deliveries: createDeliveryLog(redis, config.redis.prefix),
      http,
      requestTimeoutMs: 5_000,
    });
    const event = { ...fact(randomUUID()), tenantId: tenant.tenant.id, createdAt: new Date().toISOString() };
    const result = await new MockActivityEnvironment({}, { logger: new DefaultLogger('ERROR') }).run(
      activities.attemptEventDelivery,
      {
        tenantId: tenant.tenant.id,
        endpointId: tenant.endpointId,
        event,
        attempt: 1,
      },
    );
    t.deepEqual(result, { outcome: 'failed', error: '127.0.0.1 is not at a public address' });
    t.is(target.received.length, 0, 'the receiver was never reached');
    const listed = await tenant.asAdmin('GET', `/integrations/event-endpoints/${tenant.endpointId}/deliveries`);
    t.like(listed.body.deliveries[0], {
      eventId: event.id,
      outcome: 'failed',
      statusCode: null,
      error: '127.0.0.1 is not at a public address',
    });
  },
);

test.serial('a worker stopped mid-retry and restarted loses nothing, and keeps the order', async (t) => {
  const target = await receiver();
  const tenant = await subscribedTenant(target, ['message.created']);
  target.answerWith((index) => (index < 2 ? 502 : 204));
  const emit = emitter();
  const events = ['one', 'two', 'three', 'four'].map((name) => fact(`${randomUUID()}-${name}`));
  await emit.emit(tenant.tenant.id, events[0]!);
  await emit.emit(tenant.tenant.id, events[1]!);
  await eventually(
    async () => target.received.length,
    (count) => count >= 1,
  );

  await stack.stopWorker();
  // Emitted while no worker runs: the signals are durable in Temporal.
  await emit.emit(tenant.tenant.id, events[2]!);
  await emit.emit(tenant.tenant.id, events[3]!);
  await stack.startWorker();

  await eventually(
    async () => deliveredIds(target),
    (ids) => ids.length >= events.length,
    { timeoutMs: 60_000 },
  );
  assertEachOnceInOrder(t, target, events);
});
