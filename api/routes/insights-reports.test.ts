import test from 'ava';
import { contentGapKeys, createContentGapStore } from '#insights/content-gaps/store.js';
import type { ChannelQuestions, StoredCluster } from '#insights/content-gaps/types.js';
import { counterFields, createDayCounters, dayOf, type CounterOwner, type DayCounters } from '#insights/day-counters.js';
import type { Channel } from '#workflows/conversations/types.js';
import { createTenant, createUser, startTestApi, type TestApi } from '#testing/api.js';

let api: TestApi;
let counters: DayCounters;
test.before(async () => {
  api = await startTestApi();
  counters = createDayCounters(api.redis, api.config.redis.prefix);
});
test.after.always(() => api?.close());

/** A tenant with an admin, an agent and an operator. */
async function tenantWithOperator(name = 'Shop') {
  const tenant = await createTenant(api, name);
  const admin = await createUser(api, tenant.id, 'admin');
  const agent = await createUser(api, tenant.id, 'agent', 'Alan');
  const operator = (await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Assistant' })).body as {
    id: string;
  };
  const owner: CounterOwner = { tenantId: tenant.id, operatorId: operator.id };
  return { tenant, admin, agent, operator, owner };
}

/** Counters of one day and channel: each field's amount, first replies as a list of seconds. */
async function addDay(
  owner: CounterOwner,
  day: string,
  channel: Channel,
  figures: {
    started?: number;
    closed?: number;
    outcomes?: Partial<Record<'resolved' | 'handed_off' | 'abandoned', number>>;
    handoffs?: Partial<Record<'visitor' | 'ai' | 'agent', number>>;
    answers?: Partial<Record<'answered' | 'unknown', number>>;
    feedback?: Partial<Record<'up' | 'down', number>>;
    scores?: number[];
    firstReplies?: number[];
  },
) {
  const fields: Record<string, number> = {};
  const add = (field: string, amount = 1) => void (fields[field] = (fields[field] ?? 0) + amount);
  if (figures.started) add(counterFields.started(channel), figures.started);
  if (figures.closed) add(counterFields.closed(channel), figures.closed);
  for (const [outcome, n] of Object.entries(figures.outcomes ?? {}))
    add(counterFields.outcome(channel, outcome as 'resolved'), n);
  for (const [by, n] of Object.entries(figures.handoffs ?? {})) add(counterFields.handoff(channel, by as 'ai'), n);
  for (const [kind, n] of Object.entries(figures.answers ?? {})) add(counterFields.answers(channel, kind as 'answered'), n);
  for (const [rating, n] of Object.entries(figures.feedback ?? {})) add(counterFields.feedback(channel, rating as 'up'), n);
  for (const score of figures.scores ?? []) add(counterFields.satisfaction(channel, score));
  for (const seconds of figures.firstReplies ?? []) add(counterFields.firstReply(channel, seconds));
  await counters.add(owner, day, fields);
}

/** Twelve sources over two days; titles with commas, quotes, line ends and formula starts. */
const titles: Record<string, string> = {
  'kb/s01': 'Returns, refunds & "exchanges"',
  'kb/s02': '=HYPERLINK("http://evil.example","click")',
  'kb/s03': 'Shipping\nto islands',
  'kb/s04': '@SUM(A1:A2)',
  'kb/s05': '-2+3',
  'kb/s06': '+44 support line',
};

/** The known counters of one operator, over 2026-03-01 to 2026-03-03 (nothing on the 2nd). */
async function knownCounters(owner: CounterOwner) {
  await addDay(owner, '2026-03-01', 'widget', {
    started: 6,
    closed: 4,
    outcomes: { resolved: 2, handed_off: 1, abandoned: 1 },
    handoffs: { visitor: 1 },
    answers: { answered: 5, unknown: 1 },
    feedback: { up: 3, down: 1 },
    scores: [5, 5, 4],
    firstReplies: [30, 60, 90],
  });
  await addDay(owner, '2026-03-01', 'messaging', {
    started: 2,
    closed: 2,
    outcomes: { handed_off: 2 },
    handoffs: { ai: 1, agent: 1 },
    answers: { answered: 1 },
    feedback: { down: 1 },
    scores: [1],
    firstReplies: [45],
  });
  await addDay(owner, '2026-03-03', 'widget', { started: 2, closed: 2, outcomes: { resolved: 2 }, firstReplies: [600, 1200] });
  await addDay(owner, '2026-03-03', 'messaging', { firstReplies: [3000] });
  // s01…s12: s01 cited 12 times in all, down to s12 once; s07 and s08 tie (6 each).
  const cited = [12, 11, 10, 9, 8, 6, 6, 5, 4, 3, 2, 1];
  for (const [index, times] of cited.entries()) {
    const key = `kb/s${String(index + 1).padStart(2, '0')}`;
    for (let n = 0; n < times; n++) {
      const day = n % 2 === 0 ? '2026-03-01' : '2026-03-03';
      await counters.addCitations(owner, day, [{ key, title: n === 0 ? 'An older title' : (titles[key] ?? `Source ${key}`) }]);
    }
  }
}

const range = 'from=2026-03-01&to=2026-03-03';

test('the report adds the known counters up: conversations, outcomes and rates, reasons, replies, feedback, satisfaction, sources', async (t) => {
  const { admin, operator, owner } = await tenantWithOperator();
  await knownCounters(owner);

  const { status, body } = await api.request('GET', `/insights/reports?operatorId=${operator.id}&${range}`, {
    headers: admin.headers,
  });
  t.is(status, 200);
  t.like(body, { operatorId: operator.id, from: '2026-03-01', to: '2026-03-03', channel: null });
  t.deepEqual(body.conversations, {
    total: 10,
    byChannel: { widget: 8, messaging: 2 },
    byDay: [
      { day: '2026-03-01', total: 8, widget: 6, messaging: 2, closed: 6, resolved: 2, handedOff: 3, abandoned: 1 },
      { day: '2026-03-02', total: 0, widget: 0, messaging: 0, closed: 0, resolved: 0, handedOff: 0, abandoned: 0 },
      { day: '2026-03-03', total: 2, widget: 2, messaging: 0, closed: 2, resolved: 2, handedOff: 0, abandoned: 0 },
    ],
  });
  t.deepEqual(body.outcomes, { closed: 8, resolved: 4, handedOff: 3, abandoned: 1, resolutionRate: 0.5, handoffRate: 0.375 });
  t.deepEqual(body.handoffReasons, { visitor: 1, ai: 1, agent: 1 });
  t.deepEqual(body.answers, { answered: 6, unknown: 1 });
  t.deepEqual(body.feedback, { up: 3, down: 2, shareUp: 0.6 });
  t.deepEqual(body.satisfaction, {
    count: 4,
    average: 3.75,
    distribution: [
      { score: 1, count: 1 },
      { score: 2, count: 0 },
      { score: 3, count: 0 },
      { score: 4, count: 1 },
      { score: 5, count: 2 },
    ],
  });
  // 30, 45, 60, 90, 600, 1200, 3000 seconds: the middle one is 90.
  t.is(body.firstAgentReply.count, 7);
  t.true(Math.abs(body.firstAgentReply.medianSeconds - 90) <= 90 * 0.05, `median ${body.firstAgentReply.medianSeconds}`);
  t.deepEqual(
    body.topSources.map((source: { key: string; citations: number }) => [source.key, source.citations]),
    [
      ['kb/s01', 12],
      ['kb/s02', 11],
      ['kb/s03', 10],
      ['kb/s04', 9],
      ['kb/s05', 8],
      ['kb/s06', 6],
      ['kb/s07', 6],
      ['kb/s08', 5],
      ['kb/s09', 4],
      ['kb/s10', 3],
    ],
  );
  t.is(body.topSources[0].title, titles['kb/s01'], 'the latest title');
  t.is(body.topSources[6].title, 'Source kb/s07');
  t.deepEqual(body.contentGaps, [], 'no clusters while the content gaps are not wired');
});

test('a channel filter counts that channel alone', async (t) => {
  const { admin, operator, owner } = await tenantWithOperator();
  await knownCounters(owner);
  const reportOf = async (channel: Channel) =>
    (
      await api.request('GET', `/insights/reports?operatorId=${operator.id}&${range}&channel=${channel}`, {
        headers: admin.headers,
      })
    ).body;

  const widget = await reportOf('widget');
  t.is(widget.channel, 'widget');
  t.like(widget.conversations, { total: 8, byChannel: { widget: 8, messaging: 0 } });
  t.deepEqual(widget.outcomes, {
    closed: 6,
    resolved: 4,
    handedOff: 1,
    abandoned: 1,
    resolutionRate: 0.6667,
    handoffRate: 0.1667,
  });
  t.deepEqual(widget.handoffReasons, { visitor: 1, ai: 0, agent: 0 });
  t.deepEqual(widget.feedback, { up: 3, down: 1, shareUp: 0.75 });
  t.like(widget.satisfaction, { count: 3, average: 4.67 });
  t.true(Math.abs(widget.firstAgentReply.medianSeconds - 90) <= 4.5);

  const messaging = await reportOf('messaging');
  t.like(messaging.conversations, { total: 2, byChannel: { widget: 0, messaging: 2 } });
  t.deepEqual(messaging.outcomes, { closed: 2, resolved: 0, handedOff: 2, abandoned: 0, resolutionRate: 0, handoffRate: 1 });
  t.deepEqual(messaging.handoffReasons, { visitor: 0, ai: 1, agent: 1 });
  // 45 and 3000 seconds: the lower middle is 45.
  t.is(messaging.firstAgentReply.count, 2);
  t.true(Math.abs(messaging.firstAgentReply.medianSeconds - 45) <= 45 * 0.05);
  t.like(messaging.satisfaction, { count: 1, average: 1 });
});

/** A stored cluster asked on these channels: a day's `[unknown, ratedDown]` each, asked at noon. */
function clusterAskedOn(id: string, asked: Partial<Record<Channel, Record<string, [number, number]>>>): StoredCluster {
  const on = (days: Record<string, [number, number]>): ChannelQuestions => {
    const sorted = Object.keys(days).sort();
    return {
      days,
      askedSince: 0,
      examples: [`${id}?`],
      firstAskedAt: `${sorted[0]}T12:00:00.000Z`,
      lastAskedAt: `${sorted.at(-1)}T12:00:00.000Z`,
    };
  };
  const channels = Object.fromEntries(Object.entries(asked).map(([channel, days]) => [channel, on(days)]));
  const times = Object.values(channels)
    .flatMap((questions) => [questions.firstAskedAt, questions.lastAskedAt])
    .sort();
  return {
    id,
    channels,
    askedSince: 0,
    representative: `${id}?`,
    examples: [`${id}?`],
    closestSources: [],
    firstAskedAt: times[0]!,
    lastAskedAt: times.at(-1)!,
  };
}

test("the content gaps follow the report's channel: counts, ranking, and the export", async (t) => {
  const { admin, operator, owner } = await tenantWithOperator();
  await createContentGapStore(api.redis, api.config.redis.prefix).saveClusters(
    owner,
    {
      clusteredAt: '2026-03-04T00:00:00.000Z',
      covered: 14,
      coveredSeq: 14,
      clusters: [
        clusterAskedOn('returns', { widget: { '2026-03-01': [2, 1] }, messaging: { '2026-03-03': [1, 0] } }),
        clusterAskedOn('opening-hours', { widget: { '2026-03-03': [2, 0] } }),
        clusterAskedOn('sizes', { messaging: { '2026-03-01': [3, 2] }, widget: { '2026-03-05': [1, 0] } }),
      ],
    },
    new Map(),
  );
  const gapsOf = async (channel?: Channel) =>
    (
      await api.request('GET', `/insights/reports?operatorId=${operator.id}&${range}${channel ? `&channel=${channel}` : ''}`, {
        headers: admin.headers,
      })
    ).body.contentGaps.map((cluster: any) => [cluster.id, cluster.count, cluster.reasons.unknown, cluster.reasons.ratedDown]);

  t.deepEqual(await gapsOf(), [
    ['sizes', 5, 3, 2],
    ['returns', 4, 3, 1],
    ['opening-hours', 2, 2, 0],
  ]);
  // `sizes` was asked on the widget only after the range.
  t.deepEqual(await gapsOf('widget'), [
    ['returns', 3, 2, 1],
    ['opening-hours', 2, 2, 0],
  ]);
  t.deepEqual(await gapsOf('messaging'), [
    ['sizes', 5, 3, 2],
    ['returns', 1, 1, 0],
  ]);
  const messaging = (
    await api.request('GET', `/insights/reports?operatorId=${operator.id}&${range}&channel=messaging`, { headers: admin.headers })
  ).body;
  t.is(messaging.contentGaps[1].lastAskedAt, '2026-03-03T12:00:00.000Z');
  t.is(messaging.contentGaps[0].lastAskedAt, '2026-03-01T12:00:00.000Z', "the channel's last question");

  const exported = await csv(admin.headers, 'content-gaps', `operatorId=${operator.id}&${range}&channel=widget`);
  t.deepEqual(exported.lines, [
    'rank,cluster_id,questions,representative,unknown,rated_down,last_asked_at',
    '1,returns,3,returns?,2,1,2026-03-01T12:00:00.000Z',
    '2,opening-hours,2,opening-hours?,2,0,2026-03-03T12:00:00.000Z',
    '',
  ]);
});

test('a clustering stored before the channels were kept counts in a read of both channels only', async (t) => {
  const { admin, operator, owner } = await tenantWithOperator();
  const before = {
    clusteredAt: '2026-03-04T00:00:00.000Z',
    covered: 3,
    coveredSeq: 3,
    clusters: [
      {
        id: 'returns',
        days: { '2026-03-01': [2, 0], '2026-03-02': [0, 1] },
        askedSince: 0,
        representative: 'Can I return a gift?',
        examples: ['Can I return a gift?'],
        closestSources: [],
        firstAskedAt: '2026-03-01T09:00:00.000Z',
        lastAskedAt: '2026-03-02T09:00:00.000Z',
      },
    ],
  };
  await api.redis.set(contentGapKeys(api.config.redis.prefix).clusters(owner), JSON.stringify(before));
  const reportOf = async (channel = '') =>
    (await api.request('GET', `/insights/reports?operatorId=${operator.id}&${range}${channel}`, { headers: admin.headers })).body;

  t.deepEqual((await reportOf()).contentGaps, [
    {
      id: 'returns',
      count: 3,
      representative: 'Can I return a gift?',
      reasons: { unknown: 2, ratedDown: 1 },
      lastAskedAt: '2026-03-02T09:00:00.000Z',
    },
  ]);
  t.deepEqual((await reportOf('&channel=widget')).contentGaps, []);
  t.deepEqual((await reportOf('&channel=messaging')).contentGaps, []);
});

test('a range with nothing in it is zeros and nulls; the default range is the last 30 days ending today', async (t) => {
  const { admin, operator, owner } = await tenantWithOperator();
  await knownCounters(owner);
  const empty = (
    await api.request('GET', `/insights/reports?operatorId=${operator.id}&from=2026-04-01&to=2026-04-02`, {
      headers: admin.headers,
    })
  ).body;
  t.deepEqual(empty.conversations.byDay, [
    { day: '2026-04-01', total: 0, widget: 0, messaging: 0, closed: 0, resolved: 0, handedOff: 0, abandoned: 0 },
    { day: '2026-04-02', total: 0, widget: 0, messaging: 0, closed: 0, resolved: 0, handedOff: 0, abandoned: 0 },
  ]);
  t.deepEqual(empty.outcomes, { closed: 0, resolved: 0, handedOff: 0, abandoned: 0, resolutionRate: null, handoffRate: null });
  t.deepEqual(empty.firstAgentReply, { count: 0, medianSeconds: null });
  t.deepEqual(empty.feedback, { up: 0, down: 0, shareUp: null });
  t.like(empty.satisfaction, { count: 0, average: null });
  t.deepEqual(empty.topSources, []);

  const today = dayOf(Date.now());
  const daysAgo = (n: number) => dayOf(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000);
  await addDay(owner, today, 'widget', { started: 1 });
  await addDay(owner, daysAgo(29), 'widget', { started: 2 });
  await addDay(owner, daysAgo(30), 'widget', { started: 4 });
  const recent = (await api.request('GET', `/insights/reports?operatorId=${operator.id}`, { headers: admin.headers })).body;
  t.like(recent, { from: daysAgo(29), to: today, conversations: { total: 3 } });
  t.is(recent.conversations.byDay.length, 30);
});

test("two tenants' counters never mix, even under the same operator id", async (t) => {
  const a = await tenantWithOperator('A');
  const b = await tenantWithOperator('B');
  await addDay(a.owner, '2026-03-01', 'widget', { started: 3 });
  await addDay(b.owner, '2026-03-01', 'widget', { started: 5 });
  await counters.addCitations(b.owner, '2026-03-01', [{ key: 'kb/b-only', title: 'B' }]);
  // Another tenant's counters under A's operator id are not A's.
  await addDay({ tenantId: b.tenant.id, operatorId: a.operator.id }, '2026-03-01', 'widget', { started: 7 });

  const reportOf = async (side: typeof a) =>
    (await api.request('GET', `/insights/reports?operatorId=${side.operator.id}&${range}`, { headers: side.admin.headers })).body;
  const ofA = await reportOf(a);
  t.is(ofA.conversations.total, 3);
  t.deepEqual(ofA.topSources, []);
  const ofB = await reportOf(b);
  t.is(ofB.conversations.total, 5);
  t.deepEqual(ofB.topSources, [{ key: 'kb/b-only', title: 'B', citations: 1 }]);
});

test('only an admin of the operator’s tenant reads its reports: no token 401, an agent 403, another tenant’s or an unknown operator 404', async (t) => {
  const a = await tenantWithOperator('A');
  const b = await tenantWithOperator('B');
  for (const path of [
    `/insights/reports?operatorId=${a.operator.id}`,
    `/insights/reports/daily.csv?operatorId=${a.operator.id}`,
  ]) {
    const anonymous = await api.request('GET', path);
    t.is(anonymous.status, 401);
    t.is(anonymous.body.error.code, 'unauthorized');
    const agent = await api.request('GET', path, { headers: a.agent.headers });
    t.is(agent.status, 403);
    t.is(agent.body.error.code, 'forbidden');
    const other = await api.request('GET', path, { headers: b.admin.headers });
    t.is(other.status, 404);
    t.is(other.body.error.code, 'not_found');
  }
  const unknown = await api.request('GET', '/insights/reports?operatorId=5c0f7e73-a4fe-4df6-9bf1-bf89a4065476', {
    headers: a.admin.headers,
  });
  t.is(unknown.status, 404);
});

test('bad queries are refused in the one error shape, each naming its field', async (t) => {
  const { admin, operator } = await tenantWithOperator();
  const cases: Array<[string, string]> = [
    ['from=2026-13-01', '/from'],
    ['to=2026-02-30', '/to'],
    ['from=yesterday', '/from'],
    ['from=2026-03-05&to=2026-03-01', '/from'],
    ['from=2025-01-01&to=2026-01-02', '/to'],
    ['channel=email', '/channel'],
    ['channel=widget&operatorId=not-a-uuid', '/operatorId'],
  ];
  for (const [query, path] of cases) {
    const withOperator = query.includes('operatorId') ? query : `operatorId=${operator.id}&${query}`;
    for (const route of ['/insights/reports', '/insights/reports/daily.csv']) {
      const { status, body } = await api.request('GET', `${route}?${withOperator}`, { headers: admin.headers });
      t.is(status, 400, `${route}?${query}`);
      t.is(body.error.code, 'invalid_payload');
      t.true(
        body.error.details.some((detail: { path: string }) => detail.path === path),
        `${query}: ${JSON.stringify(body.error.details)}`,
      );
    }
  }
  const missing = await api.request('GET', '/insights/reports', { headers: admin.headers });
  t.is(missing.status, 400);
  t.deepEqual(missing.body.error.details, [{ path: '/operatorId', message: 'is required' }]);
  // 366 days is the most, and allowed.
  const longest = await api.request('GET', `/insights/reports?operatorId=${operator.id}&from=2025-01-01&to=2026-01-01`, {
    headers: admin.headers,
  });
  t.is(longest.status, 200);
  t.is(longest.body.conversations.byDay.length, 366);

  const unknownTable = await api.request('GET', `/insights/reports/everything.csv?operatorId=${operator.id}`, {
    headers: admin.headers,
  });
  t.is(unknownTable.status, 404);
  t.is(unknownTable.body.error.code, 'not_found');
  t.regex(unknownTable.body.error.message, /daily, handoff-reasons/);
});

async function csv(headers: Record<string, string>, table: string, query: string) {
  const response = await api.request('GET', `/insights/reports/${table}.csv?${query}`, { headers });
  return { ...response, lines: (response.body as string).split('\r\n') };
}

test('each table exports as CSV: its header, its rows, an attachment name', async (t) => {
  const { admin, operator, owner } = await tenantWithOperator();
  await knownCounters(owner);
  const query = `operatorId=${operator.id}&${range}`;

  const daily = await csv(admin.headers, 'daily', query);
  t.is(daily.status, 200);
  t.is(daily.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.is(daily.headers.get('content-disposition'), `attachment; filename="daily-${operator.id}-2026-03-01-2026-03-03.csv"`);
  t.deepEqual(daily.lines, [
    'day,channel,conversations,closed,resolved,handed_off,abandoned,answers_answered,answers_unknown,feedback_up,feedback_down,satisfaction_count,satisfaction_average',
    '2026-03-01,widget,6,4,2,1,1,5,1,3,1,3,4.67',
    '2026-03-01,messaging,2,2,0,2,0,1,0,0,1,1,1',
    '2026-03-02,widget,0,0,0,0,0,0,0,0,0,0,',
    '2026-03-02,messaging,0,0,0,0,0,0,0,0,0,0,',
    '2026-03-03,widget,2,2,2,0,0,0,0,0,0,0,',
    '2026-03-03,messaging,0,0,0,0,0,0,0,0,0,0,',
    '',
  ]);
  const widgetOnly = await csv(admin.headers, 'daily', `${query}&channel=widget`);
  t.deepEqual(
    widgetOnly.lines.slice(1, -1).map((line) => line.split(',')[1]),
    ['widget', 'widget', 'widget'],
  );

  t.deepEqual((await csv(admin.headers, 'handoff-reasons', query)).lines, [
    'reason,handed_off',
    'visitor,1',
    'ai,1',
    'agent,1',
    '',
  ]);
  t.deepEqual((await csv(admin.headers, 'feedback', query)).lines, ['rating,answers', 'up,3', 'down,2', '']);
  t.deepEqual((await csv(admin.headers, 'satisfaction', query)).lines, [
    'score,conversations',
    '1,1',
    '2,0',
    '3,0',
    '4,1',
    '5,2',
    '',
  ]);
  const gaps = await csv(admin.headers, 'content-gaps', query);
  t.deepEqual(gaps.lines, ['rank,cluster_id,questions,representative,unknown,rated_down,last_asked_at', '']);
  t.is(gaps.headers.get('content-disposition'), `attachment; filename="content-gaps-${operator.id}-2026-03-01-2026-03-03.csv"`);
});

test('the sources export quotes commas, quotes and line ends, and never lets a title run as a formula', async (t) => {
  const { admin, operator, owner } = await tenantWithOperator();
  await knownCounters(owner);
  const sources = await csv(admin.headers, 'top-sources', `operatorId=${operator.id}&${range}`);
  t.is(sources.status, 200);
  const text = sources.body as string;
  t.true(text.startsWith('rank,source_key,title,citations\r\n'));
  t.true(text.includes('\r\n1,kb/s01,"Returns, refunds & ""exchanges""",12\r\n'), text);
  t.true(text.includes('\r\n2,kb/s02,"\'=HYPERLINK(""http://evil.example"",""click"")",11\r\n'), text);
  t.true(text.includes('\r\n3,kb/s03,"Shipping\nto islands",10\r\n'), text);
  t.true(text.includes("\r\n4,kb/s04,'@SUM(A1:A2),9\r\n"), text);
  t.true(text.includes("\r\n5,kb/s05,'-2+3,8\r\n"), text);
  t.true(text.includes("\r\n6,kb/s06,'+44 support line,6\r\n"), text);
  // All twelve sources: the export lists more than the report's ten.
  t.true(text.includes('\r\n12,kb/s12,An older title,1\r\n'), text);
});

test('the reports are documented under Insights, the exports as CSV', async (t) => {
  const document = (await api.request('GET', '/openapi.json')).body;
  const report = document.paths['/insights/reports'].get;
  const table = document.paths['/insights/reports/{table}.csv'].get;
  t.deepEqual(report.tags, ['Insights']);
  t.deepEqual(table.tags, ['Insights']);
  t.deepEqual(report.security, [{ userToken: [] }]);
  t.truthy(report.responses[200].content['application/json'].schema);
  t.deepEqual(Object.keys(table.responses[200].content), ['text/csv; charset=utf-8']);
  t.true(table.parameters.some((p: { in: string; name: string }) => p.in === 'path' && p.name === 'table'));
  for (const status of ['400', '401', '403', '404']) t.truthy(table.responses[status], `${status} documented`);
});
