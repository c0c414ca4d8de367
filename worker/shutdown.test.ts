import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import test from 'ava';
import { connectorScheduleId } from '#workflows/ids.js';
import { eventually } from '#testing/eventually.js';
import { startTestApi } from '#testing/api.js';
import { connectingTenant } from '#testing/connectors.js';
import { startFakeCms } from '#testing/fake-cms.js';
import { readBody, startHttpFake } from '#testing/http-fake.js';
import { freePort, runEntry } from '#testing/processes.js';

/*
 * SIGTERM to a real worker process while a connector activity waits on a tenant's site: the worker
 * stops polling (its /ready turns 503), the activity gets its answer, sends what it read and
 * completes, and the process exits 0. A connector activity obeys cancellation (it aborts its
 * request), so it completes only if shutdown waits for it rather than cancelling it. The real API,
 * Temporal, Weaviate and Redis; the site is a local fake behind a gate the test opens.
 */

test('on SIGTERM the worker lets its running activity finish, then exits 0', async (t) => {
  const site = await startFakeCms();
  site.addPosts(3);
  const gate = await startGate(site.url);
  const api = await startTestApi({ TEMPORAL_TASK_QUEUE: `shutdown-${randomUUID()}` });
  const connection = await Connection.connect({ address: api.config.temporal.address });
  const client = new Client({ connection, namespace: api.config.temporal.namespace });
  t.teardown(async () => {
    gate.release();
    await connection.close();
    await api.close();
    await gate.close();
    await site.close();
  });

  // Made while no worker runs: its first sync starts with the worker, and its first request waits at the gate.
  const owner = await connectingTenant(api);
  const created = await owner.asAdmin('POST', '/connectors/cms', { name: 'Slow site', data: { siteUrl: gate.url } });
  t.is(created.status, 201, JSON.stringify(created.body));
  gate.hold();

  const healthPort = await freePort();
  const worker = runEntry('worker/main.ts', {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue,
    REDIS_PREFIX: api.config.redis.prefix,
    SECRETS_KEY: api.config.secretsKey!.toString('base64'),
    ADMIN_TOKEN: api.adminToken,
    CONNECTORS_API_URL: api.url,
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    SHUTDOWN_GRACE_SECONDS: '60',
    HEALTH_PORT: String(healthPort),
  });
  t.teardown(() => worker.stop());
  const probe = async (path: string) => (await fetch(`http://127.0.0.1:${healthPort}${path}`)).status;
  const readyAnswers = (status: number) =>
    eventually(
      () => probe('/ready'),
      (answered) => answered === status,
      { timeoutMs: 30_000, intervalMs: 50 },
    );
  await worker.waitFor(/"msg":"worker started"/);
  t.is(await readyAnswers(200), 200);

  await eventually(
    async () => gate.held,
    (held) => held > 0,
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  const schedule = client.schedule.getHandle(connectorScheduleId(owner.tenant.id, created.body.id));
  const [started] = (
    await eventually(
      () => schedule.describe(),
      ({ info }) => info.recentActions.length > 0,
      { timeoutMs: 30_000, intervalMs: 100 },
    )
  ).info.recentActions;
  const sync = client.workflow.getHandle(started!.action.workflow.workflowId);
  const inFlight = activities(await sync.fetchHistory()).filter((activity) => activity.outcome === undefined);
  t.is(inFlight.length, 1, 'one activity waits on the site');

  worker.child.kill('SIGTERM');
  t.is(await readyAnswers(503), 503, 'not ready once it drains');
  t.is(await probe('/live'), 200, 'alive while it drains');

  gate.release();
  t.is(await worker.exited, 0, worker.output());
  t.regex(worker.output(), /"msg":"worker stopped"/);
  t.is(gate.aborted, 0, 'no request to the site was abandoned');
  const after = activities(await sync.fetchHistory()).find((activity) => activity.scheduledId === inFlight[0]!.scheduledId);
  t.deepEqual(after, { ...inFlight[0]!, outcome: 'completed' }, 'the activity in flight at SIGTERM completed');
});

/** The activities of a workflow's history, each with its outcome once it has one. */
function activities(history: Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>) {
  const found = new Map<string, { scheduledId: string; name: string; outcome?: string }>();
  for (const event of history.events ?? []) {
    const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (name) found.set(String(event.eventId), { scheduledId: String(event.eventId), name });
    const outcomes = {
      completed: event.activityTaskCompletedEventAttributes,
      failed: event.activityTaskFailedEventAttributes,
      timedOut: event.activityTaskTimedOutEventAttributes,
      canceled: event.activityTaskCanceledEventAttributes,
    };
    for (const [outcome, attributes] of Object.entries(outcomes)) {
      const activity = attributes?.scheduledEventId ? found.get(String(attributes.scheduledEventId)) : undefined;
      if (activity) activity.outcome = outcome;
    }
  }
  return [...found.values()];
}

/**
 * A reverse proxy to `target` that, once told to `hold()`, keeps each request waiting until
 * `release()`; it counts the requests whose client gave up while waiting.
 */
async function startGate(target: string) {
  const waiting: Array<() => void> = [];
  let holding = false;
  let aborted = 0;
  const server = await startHttpFake((request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (holding) {
        response.on('close', () => response.writableFinished || aborted++);
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      const { host: _host, connection: _connection, 'content-length': _length, ...headers } = request.headers;
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method,
        headers: headers as Record<string, string>,
        ...(body ? { body } : {}),
      });
      const text = await answer.text();
      // fetch has decoded the body: its length and encoding headers no longer apply.
      const passed: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) passed[name] = value;
      });
      if (!response.destroyed) response.writeHead(answer.status, passed).end(text);
    })();
  });
  return {
    url: server.url,
    get held() {
      return waiting.length;
    },
    get aborted() {
      return aborted;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const resolve of waiting.splice(0)) resolve();
    },
    close: () => server.close(),
  };
}
