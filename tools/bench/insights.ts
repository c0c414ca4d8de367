/**
 * `npm run bench:insights [-- --conversations 100000 --days 90 --sources 2000 --requests 300 --concurrency 4]`:
 * the reports on a stack of their own (API and worker processes, real Redis).
 *  - writes straight to the day counters (`lib/insights/day-counters.ts`: pipelined HINCRBY, and ZINCRBY
 *    for the cited sources) `days` days
 *    of one operator's activity: `conversations` conversations on both channels with their outcomes,
 *    handoffs and their reasons, answers, ratings, satisfaction scores, first agent replies, and
 *    citations of `sources` sources (a few cited often, most rarely);
 *  - checks the report's totals and its ten most cited sources against what was written;
 *  - measures GET /insights/reports over all the days and one CSV export (`daily`), `requests`
 *    requests each at `concurrency` in flight, and beside them the same run's `/live` (the baseline).
 * The cost of a report is one pipelined read of a hash a day and the top sources summed in Redis
 * over the days' sorted sets: it should not grow with the number of conversations.
 */
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { counterFields, createDayCounters, dayExpiry, dayOf, insightKeys } from '#insights/day-counters.js';
import type { RedisClient } from '#platform/redis.js';
import type { Channel } from '#workflows/conversations/types.js';
import { percentile, round, startMeasuredStack } from './measured-stack.js';

const { values: args } = parseArgs({
  options: {
    conversations: { type: 'string', default: '100000' },
    days: { type: 'string', default: '90' },
    sources: { type: 'string', default: '2000' },
    requests: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '4' },
  },
});
const conversationCount = Number(args.conversations);
const dayCount = Number(args.days);
const sourceCount = Number(args.sources);
const requestCount = Number(args.requests);
const concurrency = Number(args.concurrency);

const stack = await startMeasuredStack('bench-insights');
try {
  await stack.startApps();
  const tenant = await stack.admin.request<{ id: string }>('POST', '/admin/tenants', { name: 'Bench insights' });
  const operator = await stack.admin.request<{ id: string }>('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'Northwind Outfitters',
  });
  const user = await stack.admin.request<{ token: string }>('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'Bench admin',
    email: 'bench-insights@example.com',
    role: 'admin',
  });
  const owner = { tenantId: tenant.id, operatorId: operator.id };
  const to = dayOf(Date.now());
  const days = Array.from({ length: dayCount }, (_, i) => dayOf(Date.parse(`${to}T00:00:00Z`) - (dayCount - 1 - i) * 86_400_000));

  const writeStarted = performance.now();
  const written = simulate(days);
  const redis = stack.redis as unknown as RedisClient;
  const counters = createDayCounters(redis, stack.prefix);
  const keys = insightKeys(stack.prefix);
  const write = pLimit(8);
  await Promise.all(
    days.map((day) =>
      write(async () => {
        await counters.add(owner, day, written.counts.get(day)!);
        const citations = redis.multi();
        for (const [key, times] of written.citations.get(day)!) citations.zIncrBy(keys.daySources(owner, day), times, key);
        await citations.expireAt(keys.daySources(owner, day), dayExpiry(day)).exec();
      }),
    ),
  );
  await redis.hSet(keys.sourceTitles(owner), written.titles);
  const writeSeconds = (performance.now() - writeStarted) / 1000;

  const headers = { authorization: `Bearer ${user.token}` };
  const query = `operatorId=${operator.id}&from=${days[0]}&to=${to}`;
  const report = await (await fetch(`${stack.apiUrl}/insights/reports?${query}`, { headers })).json();
  const checks = {
    conversations: [report.conversations?.total, conversationCount],
    closed: [report.outcomes?.closed, written.closed],
    'first replies': [report.firstAgentReply?.count, written.firstReplies.length],
    'sources listed': [report.topSources?.length, 10],
  };
  for (const [what, [seen, expected]] of Object.entries(checks))
    if (seen !== expected) throw new Error(`the report says ${seen} ${what}, ${expected} were written`);
  const cited = new Map<string, number>();
  for (const ofDay of written.citations.values()) for (const [key, times] of ofDay) cited.set(key, (cited.get(key) ?? 0) + times);
  const topTen = JSON.stringify([...cited].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, 10));
  const reportedTop = JSON.stringify(report.topSources.map((s: { key: string; citations: number }) => [s.key, s.citations]));
  if (reportedTop !== topTen) throw new Error(`the report's top sources ${reportedTop}, written ${topTen}`);
  const trueMedian = [...written.firstReplies].sort((a, b) => a - b)[Math.ceil(written.firstReplies.length / 2) - 1]!;

  const measure = async (
    path: string,
    requestHeaders: Record<string, string> = {},
    { count = requestCount, parallel = concurrency } = {},
  ) => {
    const inFlight = pLimit(parallel);
    const once = async () => {
      const started = performance.now();
      const response = await fetch(`${stack.apiUrl}${path}`, { headers: requestHeaders });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      return performance.now() - started;
    };
    // Warm-up: connections, compiled code paths.
    await Promise.all(Array.from({ length: 20 }, () => inFlight(once)));
    const started = performance.now();
    const ms = await Promise.all(Array.from({ length: count }, () => inFlight(once)));
    const seconds = (performance.now() - started) / 1000;
    const sorted = ms.sort((a, b) => a - b);
    return {
      'p50 ms': round(percentile(sorted, 0.5)),
      'p95 ms': round(percentile(sorted, 0.95)),
      'p99 ms': round(percentile(sorted, 0.99)),
      'requests/s': round(count / seconds),
    };
  };
  const live = await measure('/live');
  // One at a time first: what a report costs on its own.
  const alone = await measure(`/insights/reports?${query}`, headers, { count: 50, parallel: 1 });
  const reports = await measure(`/insights/reports?${query}`, headers);
  const csv = await measure(`/insights/reports/daily.csv?${query}`, headers);
  const liveAfter = await measure('/live');

  console.log(
    `\nbench:insights (${conversationCount} conversations over ${dayCount} days, ${sourceCount} sources, ` +
      `${requestCount} requests per route at ${concurrency} in flight, profile ${stack.profile})`,
  );
  const sourceFields = await Promise.all(days.map((day) => redis.zCard(keys.daySources(owner, day))));
  console.log(
    `counters written in ${round(writeSeconds)} s; a report reads ${days.length} hashes and sums ${days.length} sorted sets ` +
      `(${sourceFields.reduce((a, b) => a + b, 0)} cited-source members) in Redis; report JSON ${JSON.stringify(report).length} bytes`,
  );
  console.log(
    `median first reply: reported ${report.firstAgentReply.medianSeconds} s, exact ${round(trueMedian)} s ` +
      `(${round((Math.abs(report.firstAgentReply.medianSeconds - trueMedian) / trueMedian) * 100, 2)}% off)`,
  );
  console.table({
    'baseline: GET /live': live,
    [`GET /insights/reports (${dayCount} days), one at a time, 50 requests`]: alone,
    [`GET /insights/reports (${dayCount} days)`]: reports,
    [`GET /insights/reports/daily.csv (${dayCount} days)`]: csv,
    'baseline again: GET /live': liveAfter,
  });
  console.log(
    `report p50 / baseline p50: ${round(reports['p50 ms'] / live['p50 ms'], 2)}; ` +
      `report p99 / baseline p99: ${round(reports['p99 ms'] / live['p99 ms'], 2)}; ` +
      `CSV p99 / baseline p99: ${round(csv['p99 ms'] / live['p99 ms'], 2)}`,
  );
} finally {
  await stack.stop();
}

/**
 * A realistic mix, drawn from a seeded generator: 70% of conversations on the widget; 95% close
 * (55% resolved, 25% handed off, 20% abandoned); a handoff asked by the visitor half the time, by
 * the AI a third, taken over by an agent the rest, with a first agent reply after a minute to an
 * hour or so; two answers per conversation, one in eight unknown; one conversation in five rates
 * an answer (three up for one down); a third of the handed-off ones give a score; each answer cites
 * one to three sources, a few of them most of the time.
 */
function simulate(onDays: string[]) {
  let seed = 20_261_127;
  const random = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  const pick = <T>(choices: Array<[T, number]>): T => {
    let r = random();
    for (const [value, weight] of choices) if ((r -= weight) < 0) return value;
    return choices.at(-1)![0];
  };
  const counts = new Map(onDays.map((day) => [day, {} as Record<string, number>]));
  const citations = new Map(onDays.map((day) => [day, new Map<string, number>()]));
  const firstReplies: number[] = [];
  let closed = 0;
  for (let i = 0; i < conversationCount; i++) {
    // Later days a little busier (a growing business).
    const day = onDays[Math.min(onDays.length - 1, Math.floor(random() ** 0.9 * onDays.length))]!;
    const fields = counts.get(day)!;
    const add = (field: string, amount = 1) => void (fields[field] = (fields[field] ?? 0) + amount);
    const channel: Channel = random() < 0.7 ? 'widget' : 'messaging';
    add(counterFields.started(channel));
    const answers = 1 + Math.floor(random() * 3);
    for (let a = 0; a < answers; a++) {
      const known = random() >= 0.125;
      add(counterFields.answers(channel, known ? 'answered' : 'unknown'));
      if (!known) continue;
      const cited = citations.get(day)!;
      for (let s = 1 + Math.floor(random() * 3); s > 0; s--) {
        const key = `kb-main/article-${Math.floor(random() ** 3 * sourceCount)}`;
        cited.set(key, (cited.get(key) ?? 0) + 1);
      }
    }
    if (random() < 0.2) add(counterFields.feedback(channel, random() < 0.75 ? 'up' : 'down'));
    if (random() >= 0.95) continue;
    closed++;
    add(counterFields.closed(channel));
    const outcome = pick<'resolved' | 'handed_off' | 'abandoned'>([
      ['resolved', 0.55],
      ['handed_off', 0.25],
      ['abandoned', 0.2],
    ]);
    add(counterFields.outcome(channel, outcome));
    if (outcome !== 'handed_off') continue;
    add(
      counterFields.handoff(
        channel,
        pick<'visitor' | 'ai' | 'agent'>([
          ['visitor', 0.5],
          ['ai', 0.35],
          ['agent', 0.15],
        ]),
      ),
    );
    const seconds = Math.round(Math.exp(Math.log(60) + random() * Math.log(60)));
    firstReplies.push(seconds);
    add(counterFields.firstReply(channel, seconds));
    if (random() < 1 / 3)
      add(
        counterFields.satisfaction(
          channel,
          pick([
            [5, 0.45],
            [4, 0.3],
            [3, 0.12],
            [2, 0.06],
            [1, 0.07],
          ]),
        ),
      );
  }
  const titles = Object.fromEntries(
    Array.from({ length: sourceCount }, (_, s) => [`kb-main/article-${s}`, `How to look after your gear, part ${s}`]),
  );
  return { counts, citations, titles, closed, firstReplies };
}
