/**
 * `npm run bench:outbound-events [-- --events 1000 --endpoints 20 --ordered 200]`, with `STACK_PROFILE=production`
 * for the Temporal server on PostgreSQL. On a stack of its own it measures, in one run:
 *  - the limit: N workflows that each run one no-op activity (`tools/bench/noop-limit.ts`);
 *  - fan-out: N signed deliveries through Temporal to a local receiver, spread over `endpoints`
 *    endpoints (each delivery a child workflow of its endpoint's sequencer), as a ratio to the limit;
 *  - one endpoint: `ordered` events to a single endpoint, emitted one after the other, delivered in order;
 *  - Temporal history events per delivery (the child's, and the sequencer's share);
 *  - where an in-order delivery's time goes: the hand-over from one attempt to the next, and the attempt.
 * Events are emitted as the activities emit them (`lib/outbound-events/emitter.ts`); every delivery the
 * receiver takes is checked for its signature.
 */
import { parseArgs } from 'node:util';
import proto from '@temporalio/proto';
import pLimit from 'p-limit';
import { createApiClient } from '#cli/admin-client.js';
import { createEventEmitter } from '#outbound-events/emitter.js';
import { createEventEndpoints } from '#outbound-events/endpoints.js';
import { eventIdOf, type NewEvent } from '#outbound-events/event-types.js';
import { deliverySettingsOf } from '#outbound-events/settings.js';
import { readOrCreateLocalSecrets } from '#platform/local-secrets.js';
import { createSecretBox } from '#platform/secret-box.js';
import type { RedisClient } from '#platform/redis.js';
import { startFakeEventReceiver, verifyDelivery } from '#testing/fake-event-receiver.js';
import { eventDeliveryWorkflowId, eventEndpointWorkflowId } from '#workflows/ids.js';
import { log } from '#deploy/local/output.js';
import { round, startMeasuredStack, waitFor, type MeasuredStack } from './measured-stack.js';
import { measureNoopLimit } from './noop-limit.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    endpoints: { type: 'string', default: '20' },
    ordered: { type: 'string', default: '200' },
  },
});
const events = Number(args.events);
const endpointCount = Number(args.endpoints);
const ordered = Number(args.ordered);

const stack = await startMeasuredStack('events', { EVENT_DELIVERY_MAX_INTERVAL_SECONDS: '1' });
const { profile, prefix } = stack;
const processes = profile === 'production' ? 2 : 1;
const receiver = await startFakeEventReceiver();
stack.track({ stop: receiver.close });
try {
  log(`profile ${profile}: ${processes} API and ${processes} worker process(es)`);
  // The limit, with the slots of the worker's base queue, where deliveries run (16).
  const { perSecond: limitRate } = await measureNoopLimit(stack, { workflows: events, processes, activitySlots: 16 });

  await stack.startApps(processes);
  const secretsKey = Buffer.from(readOrCreateLocalSecrets(stack.plan.paths.data).secretsKey, 'base64');
  const emitter = createEventEmitter({
    endpoints: createEventEndpoints(stack.redis as unknown as RedisClient, prefix, createSecretBox({ current: secretsKey })),
    temporal: stack.temporal,
    taskQueue: prefix,
    settings: deliverySettingsOf({ horizonMs: 86_400_000, maxIntervalMs: 1_000 }),
  });

  // Fan-out: every event to each of the tenant's endpoints.
  const fanOut = await subscribedTenant(stack, receiver.url, endpointCount);
  const rounds = Math.ceil(events / endpointCount);
  const deliveries = rounds * endpointCount;
  const emitLimit = pLimit(16);
  const fanOutStart = performance.now();
  await Promise.all(
    Array.from({ length: rounds }, (_, i) => emitLimit(() => emitter.emit(fanOut.tenantId, benchEvent(`fan-${i}`)))),
  );
  const emittedSeconds = (performance.now() - fanOutStart) / 1000;
  await waitFor(() => receiver.received.length >= deliveries, 250);
  const fanOutSeconds = (performance.now() - fanOutStart) / 1000;

  // One endpoint: each event waits for the one before it.
  const single = await subscribedTenant(stack, receiver.url, 1);
  const before = receiver.received.length;
  const orderedEvents = Array.from({ length: ordered }, (_, i) => benchEvent(`ordered-${i}`));
  const orderedStart = performance.now();
  for (const event of orderedEvents) await emitter.emit(single.tenantId, event);
  const orderedEmittedSeconds = (performance.now() - orderedStart) / 1000;
  await waitFor(() => receiver.received.length >= before + ordered, 100);
  const orderedSeconds = (performance.now() - orderedStart) / 1000;
  const orderedIds = receiver.received.slice(before).map((delivery) => JSON.parse(delivery.body).id);
  const inOrder = orderedIds.every((id, i) => id === orderedEvents[i]!.id);

  const secrets = new Map([...fanOut.secrets, ...single.secrets]);
  const unsigned = receiver.received.filter((delivery) => {
    return !verifyDelivery(delivery, secrets.get(delivery.path) ?? '');
  }).length;

  // History events: a delivery's own workflow, and its sequencer's events per delivery.
  const child = await stack.temporal.workflow
    .getHandle(eventDeliveryWorkflowId(single.tenantId, single.endpointIds[0]!, orderedEvents[0]!.id))
    .fetchHistory();
  // Every run of the sequencer (it continues as new), each history whole.
  let sequencerEvents = 0;
  let sequencerRuns = 0;
  const sequencerId = eventEndpointWorkflowId(single.tenantId, single.endpointIds[0]!);
  for await (const run of stack.temporal.workflow.list({ query: `WorkflowId = '${sequencerId}'` })) {
    sequencerRuns += 1;
    sequencerEvents += (await stack.temporal.workflow.getHandle(sequencerId, run.runId).fetchHistory()).events?.length ?? 0;
  }

  const breakdown = await orderedBreakdown(single.tenantId, single.endpointIds[0]!, orderedEvents);

  const fanOutRate = deliveries / fanOutSeconds;
  console.log('\nbench:outbound-events');
  console.table({
    profile,
    'limit: no-op workflows/s': round(limitRate),
    [`fan-out (${endpointCount} endpoints): deliveries`]: deliveries,
    'fan-out: seconds to emit': round(emittedSeconds),
    'fan-out: deliveries/s': round(fanOutRate),
    'fan-out: ratio to the limit': round(fanOutRate / limitRate, 2),
    'one endpoint: events': ordered,
    'one endpoint: seconds to emit (one after the other)': round(orderedEmittedSeconds),
    'one endpoint: events/s (in order)': round(ordered / orderedSeconds),
    'one endpoint: delivered in order': inOrder ? 'yes' : 'NO',
    'signatures that do not verify': unsigned,
    'non-2xx answers': receiver.received.filter((delivery) => delivery.status >= 300).length,
    'history events per delivery (child)': child.events?.length ?? 0,
    'history events per delivery (sequencer share)': round(sequencerEvents / ordered, 1),
    'sequencer runs (continue-as-new)': sequencerRuns,
    'one endpoint, median ms: hand-over (previous delivered → attempt picked up)': breakdown.handOver,
    'one endpoint, median ms: attempt (picked up → recorded)': breakdown.attempt,
  });
} finally {
  await stack.stop();
}

/**
 * Where an in-order delivery's time goes, from the histories of the middle half of the ordered
 * events' workflows (median milliseconds): the hand-over, from the previous delivery's attempt
 * being recorded (its workflow task completed, so the event was delivered) to the workflow task
 * that makes this one's attempt being picked up; and the attempt, from there to its own record.
 * Their sum is the time per event.
 */
async function orderedBreakdown(tenantId: string, endpointId: string, orderedEvents: NewEvent[]) {
  const ms = (time: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;
  const { EventType } = proto.temporal.api.enums.v1;
  const from = Math.floor(orderedEvents.length / 4);
  const to = Math.ceil((orderedEvents.length * 3) / 4);
  const handOver: number[] = [];
  const attempt: number[] = [];
  let previousDelivered: number | undefined;
  for (const event of orderedEvents.slice(from - 1, to)) {
    const history = await stack.temporal.workflow
      .getHandle(eventDeliveryWorkflowId(tenantId, endpointId, event.id))
      .fetchHistory();
    const events = history.events ?? [];
    // The first attempt's record: a local activity's marker, or an activity's scheduling before it.
    const recorded = events.findIndex(
      (e) => e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED || e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
    );
    const scheduled = events.findIndex((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    const before = scheduled >= 0 && scheduled < recorded ? scheduled : recorded;
    const picked = events.slice(0, before).findLast((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    const delivered = ms(events[recorded]?.eventTime);
    if (previousDelivered !== undefined) {
      handOver.push(ms(picked?.eventTime) - previousDelivered);
      attempt.push(delivered - ms(picked?.eventTime));
    }
    previousDelivered = delivered;
  }
  const median = (values: number[]) => round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0);
  return { handOver: median(handOver), attempt: median(attempt) };
}

function benchEvent(name: string): NewEvent {
  return { id: eventIdOf('message.created', prefix, name), type: 'message.created', data: { name } };
}

/** A tenant with an admin and `count` endpoints at the receiver; their secrets by the path each is at. */
async function subscribedTenant(measured: MeasuredStack, url: string, count: number) {
  const tenant = await measured.admin.request<{ id: string }>('POST', '/admin/tenants', { name: 'Bench events' });
  const user = await measured.admin.request<{ token: string }>('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'Admin',
    email: 'admin@bench.example',
    role: 'admin',
  });
  const asAdmin = createApiClient({ baseUrl: measured.apiUrl, headers: { authorization: `Bearer ${user.token}` } });
  const secrets = new Map<string, string>();
  const endpointIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await asAdmin.request<{ id: string; signingSecret: string }>('POST', '/integrations/event-endpoints', {
      url: `${url}/events/${tenant.id}/${i}`,
      eventTypes: ['message.created'],
    });
    secrets.set(`/events/${tenant.id}/${i}`, created.signingSecret);
    endpointIds.push(created.id);
  }
  return { tenantId: tenant.id, endpointIds, secrets };
}
