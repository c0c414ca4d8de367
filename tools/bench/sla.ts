/**
 * `npm run bench:sla [-- --conversations 10000 --baseline 500 --concurrency 24 --sample 50 --max-minutes 15]`:
 * what service-level clocks cost (docs/agent-inbox.md, "Teams and assignment"; issue 33, "SLA timers"), on a
 * stack of its own (one API and one worker process, real Temporal and Redis).
 *  - Two tenants, each with one agent who has no inbox page open (so conversations wait unassigned) and one
 *    team, the default team of its routing: the SLA tenant's team has long targets (first response 600 min,
 *    next response 600 min, resolution 6000 min, so nothing is due during the run); the baseline tenant's
 *    team has none.
 *  - `baseline` widget conversations on the baseline tenant, then `conversations` on the SLA tenant, each
 *    started (`POST /chat/conversations`) and handed off (`POST …/handoff`), `concurrency` at a time; the
 *    bench waits until each has its team (baseline: the team's inbox index) or its clocks running (the
 *    tenant's inbox SLA index, which the SLA step writes with the earliest due time).
 *  - The worker's resident memory (all its threads: the workflows' isolate, the Temporal core's cache) and
 *    its main thread's V8 heap (prom-client's, which does not see the workflows' thread), the API's, and the
 *    Temporal server's resident memory: idle (after a warm-up), after the baseline, after as many SLA
 *    conversations as the baseline (like for like), and after all of them; with the worker's workflow cache
 *    size (the Temporal SDK's sticky cache: beyond it, waiting workflows are evicted and replayed when woken).
 *  - The history of `sample` workflows of each kind (min / median / max events) and the median one by event
 *    type, local activities' markers by activity type.
 * The customer's "still waiting" notice and the idle close are set a day away, so nothing else fires while
 * the bench runs and every history is final. `max-minutes` bounds the starting of the SLA conversations:
 * past it, the bench measures those started and extrapolates to `conversations`, said so.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { availableParallelism, loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import proto from '@temporalio/proto';
import pLimit from 'p-limit';
import { createApiClient } from '#cli/admin-client.js';
import { conversationKeys } from '#conversations/redis-keys.js';
import { chatClient } from '#testing/chat.js';
import { scrape, sumOf, type Sample } from '#testing/prometheus-text.js';
import { residentBytes } from '#testing/process-usage.js';
import { conversationWorkflowId } from '#workflows/ids.js';
import { percentile, round, startMeasuredStack, type MeasuredStack } from './measured-stack.js';

const { values: args } = parseArgs({
  options: {
    conversations: { type: 'string', default: '10000' },
    baseline: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '24' },
    sample: { type: 'string', default: '50' },
    'max-minutes': { type: 'string', default: '15' },
  },
});
const wanted = Number(args.conversations);
const baselineCount = Number(args.baseline);
const concurrency = Number(args.concurrency);
const sampleSize = Number(args.sample);
const maxStartMs = Number(args['max-minutes']) * 60_000;
const warmUpCount = 100;

const offset = Number(process.env.STACK_PORT_OFFSET || 0);
const metricsPorts = { METRICS_PORT: 27430 + offset, WORKER_METRICS_PORT: 27431 + offset, TEMPORAL_METRICS_PORT: 27432 + offset };
const { EventType } = proto.temporal.api.enums.v1;
const MB = 2 ** 20;

interface Tenant {
  tenantId: string;
  teamId: string;
  operatorKey: string;
  /** The conversations started and handed off. */
  ids: string[];
}

interface Usage {
  workerRss: number;
  workerHeap: number;
  apiRss: number;
  apiHeap: number;
  temporalRss: number;
  cached: number;
}

const stack = await startMeasuredStack('bench-sla', {
  CONVERSATION_AGENT_WAIT_SECONDS: '86400',
  CONVERSATION_IDLE_MINUTES: '1440',
  METRICS_ENABLED: 'true',
  ...Object.fromEntries(Object.entries(metricsPorts).map(([name, port]) => [name, String(port)])),
});
try {
  const apps = await stack.startApps();
  const pids = {
    worker: apps.workers[0]!.pid!,
    api: apps.api.pid!,
    temporal: stack.services.services.find((service) => service.name === 'temporal')?.process?.pid,
  };
  const usage = async (): Promise<Usage> => {
    const [api, worker, sdk] = await Promise.all(
      Object.values(metricsPorts).map((port) => scrape(`http://127.0.0.1:${port}/metrics`)),
    );
    return {
      workerRss: residentBytes(pids.worker),
      workerHeap: sumOf(worker!, 'kb_nodejs_heap_size_used_bytes'),
      apiRss: residentBytes(pids.api),
      apiHeap: sumOf(api!, 'kb_nodejs_heap_size_used_bytes'),
      temporalRss: pids.temporal ? residentBytes(pids.temporal) : NaN,
      cached: cacheSize(sdk!),
    };
  };
  /**
   * After a quiet while, the least of ten readings two seconds apart: garbage not yet collected only adds, and
   * V8 collects it once the process has been idle for a few seconds.
   */
  const settledUsage = async (): Promise<Usage> => {
    await sleep(10_000);
    const readings: Usage[] = [];
    for (let i = 0; i < 10; i++) {
      readings.push(await usage());
      await sleep(2_000);
    }
    const least = (key: keyof Usage) => Math.min(...readings.map((reading) => reading[key]));
    return {
      workerRss: least('workerRss'),
      workerHeap: least('workerHeap'),
      apiRss: least('apiRss'),
      apiHeap: least('apiHeap'),
      temporalRss: least('temporalRss'),
      cached: Math.max(...readings.map((reading) => reading.cached)),
    };
  };

  const withTargets = await slaTenant(stack, 'Bench SLA', {
    firstResponseMinutes: 600,
    nextResponseMinutes: 600,
    resolutionMinutes: 6000,
  });
  const without = await slaTenant(stack, 'Bench SLA baseline', null);
  const slaIndex = `${conversationKeys(stack.prefix).inbox(withTargets.tenantId)}:sla`;
  const teamIndex = (tenant: Tenant) => `${conversationKeys(stack.prefix).inbox(tenant.tenantId)}:team:${tenant.teamId}`;

  // Warm-up: the first workflows, activities and compiled paths, on the baseline tenant.
  await handOff(stack, without, warmUpCount, 'warm-up');
  await settled('warm-up: routed to the team', () => stack.redis.zCard(teamIndex(without)), without.ids.length);
  const idle = await settledUsage();

  const baselineStarted = performance.now();
  await handOff(stack, without, baselineCount, 'baseline');
  const baselineSeconds = (performance.now() - baselineStarted) / 1000;
  await settled('baseline: routed to the team', () => stack.redis.zCard(teamIndex(without)), without.ids.length);
  if ((await stack.redis.zCard(`${conversationKeys(stack.prefix).inbox(without.tenantId)}:sla`)) > 0)
    throw new Error('a conversation of the team without targets has a clock running');
  const afterBaseline = await settledUsage();

  // Like for like with the baseline first, then the rest.
  const likeStarted = performance.now();
  await handOff(stack, withTargets, baselineCount, 'SLA (like for like)');
  await settled('SLA: clocks running', () => stack.redis.zCard(slaIndex), withTargets.ids.length);
  const likeSeconds = (performance.now() - likeStarted) / 1000;
  const afterLike = await settledUsage();

  const restStarted = performance.now();
  const deadline = restStarted + maxStartMs;
  await handOff(stack, withTargets, Math.max(0, wanted - baselineCount), 'SLA', deadline);
  const startSeconds = (performance.now() - restStarted) / 1000;
  await settled('SLA: clocks running', () => stack.redis.zCard(slaIndex), withTargets.ids.length);
  const clocksSeconds = (performance.now() - restStarted) / 1000;
  const afterAll = await settledUsage();
  // A minute later: what garbage a busy worker had not collected yet is gone, what the workflows hold is not.
  await sleep(60_000);
  const later = await settledUsage();
  const measured = withTargets.ids.length;

  // ---- Histories.
  const slaHistories = await histories(stack, withTargets, sampleSize);
  const baselineHistories = await histories(stack, without, sampleSize);

  // ---- The figures.
  console.log(
    `\nbench:sla (profile ${stack.profile}; load average ${loadavg()
      .map((load) => round(load))
      .join(' ')} on ${availableParallelism()} cores)`,
  );
  console.log(
    `baseline: ${baselineCount} conversations (+${warmUpCount} warm-up) of a team without targets, started and handed off in ` +
      `${round(baselineSeconds)} s; SLA: ${baselineCount} (like for like) in ${round(likeSeconds)} s until their clocks ran, ` +
      `then ${measured - baselineCount} more started in ${round(startSeconds)} s (${round((measured - baselineCount) / startSeconds)}/s), ` +
      `all clocks running after ${round(clocksSeconds)} s; ${concurrency} at a time`,
  );
  if (measured < wanted)
    console.log(
      `NOTE: only ${measured} of ${wanted} SLA conversations were started within --max-minutes ${args['max-minutes']}; ` +
        `the ${wanted} figures below are EXTRAPOLATED linearly from ${measured}.`,
    );

  const mb = (bytes: number) => round(bytes / MB, 1);
  const row = (u: Usage) => ({
    'worker RSS MB': mb(u.workerRss),
    'worker main heap MB': mb(u.workerHeap),
    'workflow cache': u.cached,
    'API RSS MB': mb(u.apiRss),
    'API heap MB': mb(u.apiHeap),
    'Temporal RSS MB': mb(u.temporalRss),
  });
  console.log('\nMemory (the least of 10 readings over 20 s, after 10 s quiet):');
  console.table({
    [`idle (after ${warmUpCount} warm-up conversations)`]: row(idle),
    [`+ ${baselineCount} baseline conversations (no targets)`]: row(afterBaseline),
    [`+ ${baselineCount} SLA conversations (like for like)`]: row(afterLike),
    [`+ ${measured - baselineCount} more SLA (${measured} SLA in all)`]: row(afterAll),
    'the same, 70 s later': row(later),
  });
  const kb = (bytes: number, count: number) => round(bytes / 1024 / count, 1);
  const perConversation = (from: Usage, to: Usage, count: number) => ({
    'worker RSS KB': kb(to.workerRss - from.workerRss, count),
    'worker main heap KB': kb(to.workerHeap - from.workerHeap, count),
    'API RSS KB': kb(to.apiRss - from.apiRss, count),
    'API heap KB': kb(to.apiHeap - from.apiHeap, count),
    'Temporal RSS KB': kb(to.temporalRss - from.temporalRss, count),
  });
  console.log('Per conversation (difference / conversations):');
  const perRows: Record<string, ReturnType<typeof perConversation>> = {
    [`baseline, no targets (${baselineCount})`]: perConversation(idle, afterBaseline, baselineCount),
    [`SLA, like for like (${baselineCount})`]: perConversation(afterBaseline, afterLike, baselineCount),
    [`SLA, all ${measured} (from before the SLA ones)`]: perConversation(afterBaseline, afterAll, measured),
    [`SLA, all ${measured}, 70 s later`]: perConversation(afterBaseline, later, measured),
  };
  console.table(perRows);
  const cachedGrowth = later.cached - afterBaseline.cached;
  if (cachedGrowth > 0)
    console.log(
      `the worker's workflow cache (Temporal's sticky cache) grew by ${cachedGrowth} for the ${measured} SLA conversations, to ${later.cached}: ` +
        `worker RSS per cached workflow ${kb(later.workerRss - afterBaseline.workerRss, cachedGrowth)} KB ` +
        `(${kb(later.workerRss - later.workerHeap - afterBaseline.workerRss + afterBaseline.workerHeap, cachedGrowth)} KB ` +
        `without the main thread's heap); from idle, ${later.cached - idle.cached} more cached: ` +
        `${kb(later.workerRss - idle.workerRss, later.cached - idle.cached)} KB each` +
        (later.cached < measured + baselineCount + warmUpCount
          ? `; the cache is full, so workflows waiting on their timers beyond it are evicted (and replayed from history when a timer or message wakes them): the worker's memory stops growing with open conversations`
          : ''),
    );
  if (measured < wanted) {
    const all = perRows[`SLA, all ${measured} (from before the SLA ones)`]!;
    console.log(
      `EXTRAPOLATED to ${wanted}: worker RSS +${round((all['worker RSS KB'] * wanted) / 1024)} MB, ` +
        `Temporal RSS +${round((all['Temporal RSS KB'] * wanted) / 1024)} MB (linear; the worker's own growth stops at its cache size)`,
    );
  }

  console.log(`\nHistory events per conversation (${sampleSize} workflows of each kind, as they wait):`);
  console.table({
    'SLA team (clocks running)': lengths(slaHistories),
    'baseline team (no targets)': lengths(baselineHistories),
  });
  const typical = (all: Breakdown[]) => [...all].sort((a, b) => a.total - b.total)[Math.floor(all.length / 2)]!;
  const sla = typical(slaHistories);
  const base = typical(baselineHistories);
  const kinds = [...new Set([...Object.keys(sla.byType), ...Object.keys(base.byType)])];
  const byType: Record<string, { SLA: number; baseline: number; difference: number }> = {};
  for (const kind of kinds) {
    const a = sla.byType[kind] ?? 0;
    const b = base.byType[kind] ?? 0;
    byType[kind] = { SLA: a, baseline: b, difference: a - b };
  }
  byType.total = { SLA: sla.total, baseline: base.total, difference: sla.total - base.total };
  console.log("The median-length history of each, by event type (markers: local activities, by the activity's type):");
  console.table(byType);
  // The settled reading (a minute after the last handoff) is the one to quote: right after a busy phase, RSS holds
  // garbage not collected yet, and the like-for-like rows differ by it more than by the clocks.
  console.log(
    `SLA clocks cost: ${sla.total - base.total} history event(s) per conversation; the worker's memory, settled: ` +
      `${perRows[`SLA, all ${measured}, 70 s later`]!['worker RSS KB']} KB of RSS per conversation over all ${measured} ` +
      `(bounded by its workflow cache of ${later.cached}: waiting workflows beyond it are evicted and replayed when woken)`,
  );
} finally {
  await stack.stop();
}

/** A tenant with an operator, an admin (who sets up the team) and one agent, and a team with `sla` as its routing's default. */
async function slaTenant(
  on: MeasuredStack,
  name: string,
  sla: { firstResponseMinutes: number; nextResponseMinutes: number; resolutionMinutes: number } | null,
): Promise<Tenant> {
  const tenant = await on.admin.request<{ id: string }>('POST', '/admin/tenants', { name });
  const operator = await on.admin.request<{ operatorKey: string }>('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'Northwind Outfitters',
  });
  const user = (role: 'admin' | 'agent', userName: string) =>
    on.admin.request<{ id: string; token: string }>('POST', `/admin/tenants/${tenant.id}/users`, {
      name: userName,
      email: `${randomUUID()}@bench.test`,
      role,
    });
  const admin = await user('admin', 'Bench admin');
  const agent = await user('agent', 'Agent 1');
  const asAdmin = createApiClient({ baseUrl: on.apiUrl, headers: { authorization: `Bearer ${admin.token}` } });
  const { team } = await asAdmin.request<{ team: { id: string } }>('POST', '/teams', {
    name: 'Support',
    memberIds: [agent.id],
    sla,
  });
  await asAdmin.request('PUT', '/team-routing', { rules: [], defaultTeamId: team.id });
  return { tenantId: tenant.id, teamId: team.id, operatorKey: operator.operatorKey, ids: [] };
}

/** Starts `count` widget conversations of `tenant` and hands each off, `concurrency` at a time; none started after `deadline`. */
async function handOff(on: MeasuredStack, tenant: Tenant, count: number, label: string, deadline = Infinity): Promise<void> {
  const chat = chatClient(on.apiUrl, tenant.operatorKey);
  const inFlight = pLimit(concurrency);
  const every = Math.max(100, Math.round(count / 10 / 100) * 100);
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, () =>
      inFlight(async () => {
        if (performance.now() > deadline) return;
        const visitor = await chat.start();
        const response = await fetch(`${on.apiUrl}/chat/conversations/${visitor.conversationId}/handoff`, {
          method: 'POST',
          headers: visitor.headers,
        });
        if (response.status !== 202) throw new Error(`handoff answered ${response.status}: ${await response.text()}`);
        tenant.ids.push(visitor.conversationId);
        if (++done % every === 0)
          console.log(`${label}: ${done}/${count} handed off (${round(done / ((performance.now() - started) / 1000))}/s)`);
      }),
    ),
  );
}

/** Waits until `count()` reaches `expected`, telling progress every 10 s; fails when it stops moving for 2 minutes. */
async function settled(label: string, count: () => Promise<number>, expected: number): Promise<void> {
  let last = -1;
  let movedAt = performance.now();
  let toldAt = performance.now();
  for (;;) {
    const now = await count();
    if (now >= expected) return;
    if (now !== last) {
      last = now;
      movedAt = performance.now();
    }
    if (performance.now() - toldAt > 10_000) {
      console.log(`${label}: ${now}/${expected}`);
      toldAt = performance.now();
    }
    if (performance.now() - movedAt > 120_000)
      throw new Error(`${label}: stuck at ${now} of ${expected} for 2 minutes (see the worker's output above)`);
    await sleep(1_000);
  }
}

/** The Temporal SDK's count of workflows held in the worker's cache. */
function cacheSize(samples: Sample[]): number {
  return samples.filter((sample) => sample.name.endsWith('sticky_cache_size')).reduce((sum, sample) => sum + sample.value, 0);
}

interface Breakdown {
  total: number;
  byType: Record<string, number>;
}

/** The histories of `count` of the tenant's conversations (spread over those started), each counted by event type. */
async function histories(on: MeasuredStack, tenant: Tenant, count: number): Promise<Breakdown[]> {
  const step = Math.max(1, Math.floor(tenant.ids.length / count));
  const picked = tenant.ids.filter((_, i) => i % step === 0).slice(0, count);
  const read = pLimit(4);
  const decoder = new TextDecoder();
  return Promise.all(
    picked.map((conversationId) =>
      read(async () => {
        const handle = on.temporal.workflow.getHandle(conversationWorkflowId(tenant.tenantId, conversationId));
        const events = (await handle.fetchHistory()).events ?? [];
        const byType: Record<string, number> = {};
        for (const event of events) {
          let kind = String(EventType[event.eventType ?? 0]).replace(/^EVENT_TYPE_/, '');
          const marker = event.markerRecordedEventAttributes;
          if (marker) {
            const data = marker.details?.data?.payloads?.[0]?.data;
            let activity = marker.markerName ?? 'marker';
            try {
              if (data) activity = (JSON.parse(decoder.decode(data)) as { activity_type?: string }).activity_type ?? activity;
            } catch {
              // Not a local activity's marker: named by its marker name.
            }
            kind = `MARKER_RECORDED: ${activity}`;
          }
          byType[kind] = (byType[kind] ?? 0) + 1;
        }
        return { total: events.length, byType };
      }),
    ),
  );
}

function lengths(all: Breakdown[]) {
  const sorted = all.map((history) => history.total).sort((a, b) => a - b);
  return { workflows: sorted.length, min: sorted[0] ?? NaN, median: percentile(sorted, 0.5), max: sorted.at(-1) ?? NaN };
}
