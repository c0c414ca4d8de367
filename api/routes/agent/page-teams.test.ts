import { join } from 'node:path';
import test from 'ava';
import { createUser } from '#testing/api.js';
import { artifactsDir, pageWithConsole, serviceWaitMs } from '#testing/browser.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { usePageBed } from '#testing/page-bed.js';

/*
 * The Teams view and the service-level badges of the inbox page in Chromium against the real stack: an
 * admin deletes a team (confirmed), creates one with two agents, office hours and targets (a refusal
 * first, said field by field), and sets the routing's default team; a conversation whose first
 * response was breached shows "SLA breached" and comes first under "Time left", and the report of the
 * last 30 days counts the breach. An agent who opens the view is told it needs the admin role.
 */

const bed = usePageBed(test, { CHAT_VISITOR_PER_MINUTE: '1000' });

const weekdayHours = '09:00-12:30, 13:30-17:00';

test('an admin sets up a team, its hours, targets and routing; a breached conversation is badged, sorted first and counted', async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const tenantId = tenant.tenant.id as string;
  const ada = await createUser(api, tenantId, 'agent', 'Ada');
  const bob = await createUser(api, tenantId, 'agent', 'Bob');
  const admin = await createUser(api, tenantId, 'admin', 'Alex');
  const as = (user: { headers: Record<string, string> }) => ({
    get: (path: string) => api.request('GET', path, { headers: user.headers }),
    send: (method: string, path: string, body?: unknown) => api.request(method, path, { headers: user.headers, body }),
  });
  const night = await as(admin).send('POST', '/teams', { name: 'Night shift', memberIds: [] });
  t.is(night.status, 201, JSON.stringify(night.body));

  const { page: tab, close, consoleText } = await pageWithConsole(bed.browser);
  try {
    await tab.goto(`${api.url}/agent`);
    await tab.fill('#token', admin.token as string);
    await tab.click('#sign-in button[type=submit]');
    await tab.locator('#live.on').waitFor({ timeout: serviceWaitMs });
    await tab.click('#show-teams');
    t.is(await tab.getAttribute('#show-teams', 'aria-pressed'), 'true');
    await tab.locator('#team-editor:not([hidden])').waitFor({ timeout: serviceWaitMs });

    // Deleting asks first.
    const nightPanel = tab.locator(`#team-list section[data-team-id="${night.body.team.id}"]`);
    await nightPanel.locator('button:text-is("Delete")').click();
    t.regex(await nightPanel.locator('.confirm').innerText(), /Delete “Night shift”\?/);
    await nightPanel.locator('button:text-is("Yes, delete")').click();
    await nightPanel.waitFor({ state: 'detached', timeout: serviceWaitMs });
    await tab.locator('#teams-note:text-is("No teams yet: create one below.")').waitFor({ timeout: serviceWaitMs });
    t.is((await as(admin).get(`/teams/${night.body.team.id}`)).status, 404);

    // A new team: members by name, assignment, office hours and targets; an unknown time zone and an
    // interval that ends before it starts are refused, each beside its field.
    await tab.fill('#team-name', 'Support');
    await tab.locator('#team-members label', { hasText: 'Ada (agent)' }).locator('input').check();
    await tab.locator('#team-members label', { hasText: 'Bob (agent)' }).locator('input').check();
    t.true(await tab.isChecked('#team-automatic'));
    await tab.fill('#team-capacity', '3');
    await tab.fill('#team-offer', '90');
    await tab.fill('#team-timezone', 'Mars/Olympus');
    for (const day of ['mon', 'tue', 'wed', 'thu', 'fri']) await tab.fill(`#team-hours-${day}`, weekdayHours);
    await tab.fill('#team-hours-sat', '12:00-10:00');
    await tab.fill('#team-holidays', '2030-12-24, 2030-12-25');
    await tab.fill('#team-sla-first', '30');
    await tab.fill('#team-sla-next', '60');
    await tab.fill('#team-sla-resolution', '480');
    await tab.click('#team-save');
    const problems = tab.locator('#team-problems:not([hidden])');
    await problems.waitFor({ timeout: serviceWaitMs });
    t.deepEqual(await problems.locator('li').allInnerTexts(), [
      'Time zone: Mars/Olympus is no IANA time zone.',
      'Saturday, interval 1 (12:00-10:00): must end after it starts.',
    ]);
    t.is(await tab.getAttribute('#team-timezone', 'aria-invalid'), 'true');
    t.is(await tab.getAttribute('#team-hours-sat', 'aria-invalid'), 'true');
    t.is(await tab.getAttribute('#team-name', 'aria-invalid'), null);
    await problems.scrollIntoViewIfNeeded();
    await tab.screenshot({ path: join(artifactsDir(), 'agent-teams-refused.png'), fullPage: true });

    await tab.fill('#team-timezone', 'Europe/Berlin');
    await tab.fill('#team-hours-sat', '');
    await tab.click('#team-save');
    const panel = tab.locator('#team-list section.team', { hasText: 'Support' });
    await panel.waitFor({ timeout: serviceWaitMs });
    t.true(await tab.locator('#team-problems').isHidden());
    t.is(await panel.locator('.members').innerText(), 'Members: Ada, Bob');
    t.is(
      await panel.locator('.assignment').innerText(),
      'Assigns automatically: at most 3 conversations each, offered for 90 s.',
    );
    t.regex(
      await panel.locator('.hours').innerText(),
      /^Office hours \(Europe\/Berlin\): Mon 09:00–12:30, 13:30–17:00 · .* · Sat closed · Sun closed; closed on 2030-12-24, 2030-12-25\.$/,
    );
    t.is(await panel.locator('.sla').innerText(), 'Targets: first response 30 min, next response 60 min, resolution 480 min.');
    const teamId = (await panel.getAttribute('data-team-id'))!;
    const stored = (await as(admin).get(`/teams/${teamId}`)).body.team;
    t.like(stored, {
      name: 'Support',
      assignment: { automatic: true, capacity: 3, offerSeconds: 90 },
      officeHours: { timeZone: 'Europe/Berlin', holidays: ['2030-12-24', '2030-12-25'] },
      sla: { firstResponseMinutes: 30, nextResponseMinutes: 60, resolutionMinutes: 480 },
    });
    t.deepEqual([...stored.memberIds].sort(), [ada.id, bob.id].sort());
    t.deepEqual(stored.officeHours.weekly.mon, [
      { from: '09:00', to: '12:30' },
      { from: '13:30', to: '17:00' },
    ]);
    t.deepEqual(stored.officeHours.weekly.sat, []);

    // "Change" fills the form with the team as it is.
    await panel.locator('button:text-is("Change")').click();
    t.is(await tab.inputValue('#team-timezone'), 'Europe/Berlin');
    t.is(await tab.inputValue('#team-hours-tue'), weekdayHours);
    t.is(await tab.inputValue('#team-sla-resolution'), '480');
    await tab.click('#team-cancel');
    t.is(await tab.inputValue('#team-name'), '');

    // The routing: a rule for refunds on the widget, and the team as the default.
    await tab.click('#routing-add');
    const rule = tab.locator('#routing-rules li.rule').first();
    t.is(await rule.locator('.rule-team').inputValue(), teamId);
    await rule.locator('.rule-channel').selectOption('widget');
    await rule.locator('.rule-keywords').fill('refund, return');
    await tab.selectOption('#routing-default', teamId);
    await tab.click('#routing-save');
    await tab.locator('#routing-note:text-is("Saved ✓")').waitFor({ timeout: serviceWaitMs });
    t.deepEqual((await as(admin).get('/team-routing')).body.routing, {
      rules: [{ teamId, channel: 'widget', keywords: ['refund', 'return'] }],
      defaultTeamId: teamId,
    });
    // The view scrolls on its own: its top (the teams) in the picture.
    await tab.evaluate(() => document.getElementById('teams')!.scrollTo(0, 0));
    await tab.screenshot({ path: join(artifactsDir(), 'agent-teams.png'), fullPage: true });

    // A breach comes quickly: open at all hours, a first response due in 2 s (the store takes what the API would not).
    const team = (await api.tenancy.getTeam(tenantId, teamId))!;
    const targets = (firstResponseMinutes: number) => ({
      officeHours: null,
      sla: { firstResponseMinutes, nextResponseMinutes: null, resolutionMinutes: null },
    });
    await api.tenancy.updateTeam(team, targets(2 / 60));
    const handOff = async (name: string) => {
      const visitor = await tenant.chat.start({ contact: { name } });
      const handoff = await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
        headers: visitor.headers,
      });
      t.is(handoff.status, 202);
      return visitor;
    };
    const summaryOf = async (conversationId: string) =>
      (await as(admin).get('/agent/conversations?status=all')).body.conversations.find(
        (summary: { conversationId: string }) => summary.conversationId === conversationId,
      );
    const grace = await handOff('Grace');
    await eventually(
      () => summaryOf(grace.conversationId),
      (summary) => summary?.sla?.breached?.includes('firstResponse'),
      { timeoutMs: serviceWaitMs },
    );
    // A later one with an hour to go: newer, but with more time left.
    await api.tenancy.updateTeam((await api.tenancy.getTeam(tenantId, teamId))!, targets(60));
    const linus = await handOff('Linus');
    await eventually(
      () => summaryOf(linus.conversationId),
      (summary) => summary?.sla?.dueAt,
      { timeoutMs: serviceWaitMs },
    );

    await tab.click('#show-inbox');
    const row = (id: string) => tab.locator(`#conversations li[data-conversation-id="${id}"]`);
    await row(grace.conversationId).locator('.badge.sla.breached:text-is("SLA breached")').waitFor({ timeout: serviceWaitMs });
    const linusBadge = row(linus.conversationId).locator('.badge.sla');
    await linusBadge.waitFor({ timeout: serviceWaitMs });
    t.regex(await linusBadge.innerText(), /^(5\d min|1 h) left$/);
    t.is(await linusBadge.getAttribute('class'), 'badge sla running');

    // "Time left": the overdue one first, though the other is newer.
    t.deepEqual(await tab.locator('#assignment-sort option').allInnerTexts(), ['Newest activity', 'Time left']);
    await tab.selectOption('#assignment-sort', 'sla');
    await tab.waitForFunction(
      ([first, second]) =>
        Array.from(document.querySelectorAll('#conversations li'), (item) => item.getAttribute('data-conversation-id')).join() ===
        `${first},${second}`,
      [grace.conversationId, linus.conversationId],
      { timeout: serviceWaitMs },
    );
    // Combined with the team filter, the same.
    await tab.selectOption('#assignment-team', teamId);
    await row(grace.conversationId).waitFor({ timeout: serviceWaitMs });
    t.is(await tab.locator('#conversations li').first().getAttribute('data-conversation-id'), grace.conversationId);
    await tab.selectOption('#assignment-team', 'none');
    await row(grace.conversationId).waitFor({ state: 'detached', timeout: serviceWaitMs });
    await tab.selectOption('#assignment-team', '');

    // The open conversation's head says so too.
    await row(grace.conversationId).locator('button').click();
    await tab.locator('#badges .badge.sla.breached:text-is("SLA breached")').waitFor({ timeout: serviceWaitMs });
    t.regex((await tab.getAttribute('#badges .badge.sla', 'title')) ?? '', /first response/);
    await tab.screenshot({ path: join(artifactsDir(), 'agent-sla.png'), fullPage: true });

    // The report of the last 30 days counts the breach, for the team by its name.
    await eventually(
      () => as(admin).get('/insights/sla'),
      (response) => response.body?.total?.firstResponse?.breached === 1,
      { timeoutMs: serviceWaitMs },
    );
    await tab.click('#show-teams');
    const cell = (rowKey: string, metric: string, outcome: string) =>
      tab.locator(`#sla-report tr[data-row="${rowKey}"] td[data-metric=${metric}][data-outcome=${outcome}]`);
    await cell('total', 'firstResponse', 'breached').locator('text="1"').waitFor({ timeout: serviceWaitMs });
    t.is(await cell('total', 'firstResponse', 'met').innerText(), '0');
    t.is(await tab.locator(`#sla-report tr[data-row="team:${teamId}"] th`).innerText(), 'Team: Support');
    t.is(await cell(`team:${teamId}`, 'firstResponse', 'breached').innerText(), '1');
    t.is(await cell(`team:${teamId}`, 'resolution', 'breached').innerText(), '0');
    await tab.locator('#sla-report').scrollIntoViewIfNeeded();
    await tab.screenshot({ path: join(artifactsDir(), 'agent-teams-sla-report.png'), fullPage: true });

    // An agent is told the view needs the admin role; nothing else of it is shown.
    await tab.click('#sign-out');
    await tab.fill('#token', ada.token as string);
    await tab.click('#sign-in button[type=submit]');
    await tab.locator('#live.on').waitFor({ timeout: serviceWaitMs });
    await tab.click('#show-teams');
    await tab.locator('#teams-note:text-matches("needs the role admin")').waitFor({ timeout: serviceWaitMs });
    t.true(await tab.locator('#team-editor').isHidden());
    t.true(await tab.locator('#routing').isHidden());
    t.is(await tab.locator('#team-list section').count(), 0);

    // The refusals' 400 and the agent's 403 are the browser's console lines; nothing else (no script or CSP errors).
    t.is(
      consoleText('error')
        .replace(/Failed to load resource.*(400|403).*/g, '')
        .trim(),
      '',
    );
  } finally {
    await close();
  }
});
