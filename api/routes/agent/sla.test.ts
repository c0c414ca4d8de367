import { randomUUID } from 'node:crypto';
import test from 'ava';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { openInboxPage } from '#testing/inbox-page.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import type { TestApi } from '#testing/api.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { conversationListResponse } from '#api/schemas/agent.js';
import { slaReportResponse } from '#api/schemas/insights-sla.js';

let stack: IngestionStack;
let api: TestApi;
test.before(async () => {
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000' });
  api = stack.api;
});
test.after.always(() => stack?.close());

interface Person {
  id: string;
  headers: Record<string, string>;
}

/** Seconds as a team's targets take them (minutes): the API's least is a minute, tests set shorter ones in the store. */
const minutes = (seconds: number) => seconds / 60;

/** A tenant with an admin and Ada, one team of her (its targets and office hours as given), and Ada's inbox page open. */
async function slaTenant(team: { sla?: Record<string, number | null>; officeHours?: unknown }) {
  const tenant = await chattingTenant(api);
  const user = async (name: string, role: string): Promise<Person> => {
    const { body } = await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, {
      name,
      email: `${randomUUID()}@shop.example`,
      role,
    });
    return { id: body.id, headers: { authorization: `Bearer ${body.token}` } };
  };
  const admin = await user('Alex', 'admin');
  const ada = await user('Ada', 'agent');
  const created = await api.request('POST', '/teams', {
    headers: admin.headers,
    body: { name: 'Support', memberIds: [ada.id], ...(team.officeHours ? { officeHours: team.officeHours } : {}) },
  });
  if (created.status !== 201) throw new Error(`team: ${JSON.stringify(created.body)}`);
  const stored = (await api.tenancy.getTeam(tenant.tenant.id, created.body.team.id))!;
  if (team.sla)
    await api.tenancy.updateTeam(stored, {
      sla: { firstResponseMinutes: null, nextResponseMinutes: null, resolutionMinutes: null, ...team.sla },
    });
  await api.request('PUT', '/team-routing', { headers: admin.headers, body: { rules: [], defaultTeamId: stored.id } });
  const page = await openInboxPage(api.url, ada.headers);
  await eventually(
    () => api.request('GET', '/agent/agents', { headers: admin.headers }),
    (agents) =>
      agents.body.agents?.some(
        (agent: { id: string; availability: string }) => agent.id === ada.id && agent.availability === 'available',
      ),
  );
  return { ...tenant, admin, ada, teamId: stored.id, closePage: page.close };
}

const call = (person: Person, method: string, path: string, body?: unknown) =>
  api.request(method, path, { headers: person.headers, ...(body === undefined ? {} : { body }) });

async function handOff(chat: Awaited<ReturnType<typeof chattingTenant>>['chat']) {
  const visitor = await chat.start({ contact: { name: 'Grace' } });
  const handoff = await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
    headers: visitor.headers,
  });
  if (handoff.status !== 202) throw new Error(`handoff answered ${handoff.status}`);
  return visitor;
}

const summaryOf = async (person: Person, conversationId: string) =>
  (await call(person, 'GET', '/agent/conversations?status=all')).body.conversations.find(
    (summary: { conversationId: string }) => summary.conversationId === conversationId,
  );

test('a first response not given in time is breached once, shown in the inbox and counted; replies in time are met', async (t) => {
  const { admin, ada, chat, teamId, closePage } = await slaTenant({
    sla: { firstResponseMinutes: minutes(2), nextResponseMinutes: minutes(60), resolutionMinutes: minutes(600) },
  });
  try {
    const visitor = await handOff(chat);
    const path = `/agent/conversations/${visitor.conversationId}`;
    const breached = await eventually(
      () => summaryOf(ada, visitor.conversationId),
      (summary) => summary?.sla?.breached?.includes('firstResponse'),
      { timeoutMs: 30_000 },
    );
    t.true(Date.parse(breached.sla.dueAt) <= Date.now(), 'overdue');
    const bySla = await call(ada, 'GET', '/agent/conversations?sort=sla');
    assertMatchesSchema(t, conversationListResponse, bySla.body);
    t.is(bySla.body.conversations[0].conversationId, visitor.conversationId, 'overdue first');

    t.is((await call(ada, 'POST', `${path}/take-over`)).status, 200);
    t.is((await call(ada, 'POST', `${path}/messages`, { text: 'Sorry for the wait.' })).status, 202);
    await chat.ask(visitor, 'One more question');
    await eventually(
      () => summaryOf(ada, visitor.conversationId),
      (summary) => summary?.sla?.dueAt && !summary.sla.breached.includes('nextResponse'),
    );
    t.is((await call(ada, 'POST', `${path}/messages`, { text: 'Here is the answer.' })).status, 202);
    t.is((await call(ada, 'POST', `${path}/close`)).status, 200);

    const report = await eventually(
      () => call(admin, 'GET', '/insights/sla'),
      (response) => response.body?.total?.resolution?.met === 1 && response.body.total.nextResponse.met === 1,
    );
    assertMatchesSchema(t, slaReportResponse, report.body);
    t.deepEqual(report.body.total, {
      firstResponse: { met: 0, breached: 1 },
      nextResponse: { met: 1, breached: 0 },
      resolution: { met: 1, breached: 0 },
    });
    t.deepEqual(
      report.body.teams.map((team: { teamId: string }) => team.teamId),
      [teamId],
    );
    t.like(
      report.body.agents.find((agent: { agentId: string }) => agent.agentId === ada.id),
      {
        figures: { firstResponse: { breached: 1 }, nextResponse: { met: 1 }, resolution: { met: 1 } },
      },
    );
    t.is((await call(ada, 'GET', '/insights/sla')).status, 403, 'the report is for admins');
    t.is((await call(admin, 'GET', '/insights/sla?from=2026-13-01')).status, 400);
    t.is((await summaryOf(ada, visitor.conversationId)).sla, null, 'closed: no clock runs');
  } finally {
    closePage();
  }
});

test.serial('a clock that runs out while no worker runs is breached once, when one is back', async (t) => {
  const { admin, ada, chat, closePage } = await slaTenant({ sla: { firstResponseMinutes: minutes(3) } });
  try {
    const visitor = await handOff(chat);
    await eventually(
      () => summaryOf(ada, visitor.conversationId),
      (summary) => summary?.sla?.dueAt,
    );
    await stack.stopWorker();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await stack.startWorker();
    await eventually(
      () => summaryOf(ada, visitor.conversationId),
      (summary) => summary?.sla?.breached?.includes('firstResponse'),
      {
        timeoutMs: 60_000,
      },
    );
    const report = await call(admin, 'GET', '/insights/sla');
    t.deepEqual(report.body.total.firstResponse, { met: 0, breached: 1 });
  } finally {
    closePage();
  }
});

test('handed off outside office hours: still queued, and the customer is told when the team is back', async (t) => {
  const today = new Date().toISOString().slice(0, 10);
  const early = [{ from: '03:00', to: '04:00' }];
  const weekly = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, early]));
  // Closed today (a holiday); open tomorrow 3:00 UTC.
  const { ada, chat, teamId, closePage } = await slaTenant({ officeHours: { timeZone: 'UTC', weekly, holidays: [today] } });
  try {
    const visitor = await handOff(chat);
    const history = await eventually(
      () => chat.history(visitor),
      (response) =>
        response.body.messages?.some((message: { text: string }) => message.text.startsWith('Our team is away right now.')),
    );
    const notice = history.body.messages.find((message: { text: string }) => message.text.startsWith('Our team is away'));
    t.regex(notice.text, /We reply from \w+,? 3:00\s?AM UTC/);
    t.is(notice.author, 'system');
    t.like(await summaryOf(ada, visitor.conversationId), { status: 'waiting_for_agent', teamId });
  } finally {
    closePage();
  }
});
