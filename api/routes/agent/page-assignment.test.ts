import { join } from 'node:path';
import test from 'ava';
import { createUser } from '#testing/api.js';
import { artifactsDir, pageWithConsole, serviceWaitMs } from '#testing/browser.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { usePageBed } from '#testing/page-bed.js';

/*
 * Teams and assignment on the inbox page in Chromium against the real stack: Ada's open page makes her
 * present and available, so a handoff routed to her team is given to her; she is told, finds it under
 * "Mine" with her name, reassigns it to Bob from the Assign control (it leaves "Mine"), and the
 * transcript shows both changes as private entries. A refusal is shown in the API's words, and her
 * availability is set from the header.
 */

const bed = usePageBed(test, { CHAT_VISITOR_PER_MINUTE: '1000' });

test('a handoff assigned to Ada: she is told, sees it under Mine, reassigns it to Bob, and the transcript shows it privately', async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const ada = await createUser(api, tenant.tenant.id, 'agent', 'Ada');
  const bob = await createUser(api, tenant.tenant.id, 'agent', 'Bob');
  const admin = await createUser(api, tenant.tenant.id, 'admin', 'Alex');
  const as = (user: { headers: Record<string, string> }) => ({
    get: (path: string) => api.request('GET', path, { headers: user.headers }),
    send: (method: string, path: string, body?: unknown) => api.request(method, path, { headers: user.headers, body }),
  });

  // Bob is a member but has no page open (offline): a handoff goes to Ada. Nobody given it passes it on meanwhile.
  const created = await as(admin).send('POST', '/teams', {
    name: 'Returns',
    memberIds: [ada.id, bob.id],
    assignment: { automatic: true, capacity: 5, offerSeconds: 86_400 },
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const team = created.body.team as { id: string };
  const routing = await as(admin).send('PUT', '/team-routing', { rules: [], defaultTeamId: team.id });
  t.is(routing.status, 200, JSON.stringify(routing.body));

  const { page: tab, close, consoleText } = await pageWithConsole(bed.browser);
  try {
    await tab.goto(`${api.url}/agent`);
    await tab.fill('#token', ada.token as string);
    await tab.click('#sign-in button[type=submit]');
    await tab.locator('#live.on').waitFor({ timeout: serviceWaitMs });
    t.is(await tab.inputValue('#availability-choice'), 'available');
    // Her inbox stream made her present: available to be given conversations.
    await eventually(
      () => as(admin).get('/agent/agents'),
      (response) =>
        response.body.agents?.some(
          (agent: { id: string; availability: string }) => agent.id === ada.id && agent.availability === 'available',
        ),
      { timeoutMs: serviceWaitMs },
    );

    const visitor = await tenant.chat.start({ contact: { name: 'Grace' } });
    const handoff = await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
      headers: visitor.headers,
    });
    t.is(handoff.status, 202);

    // Told at once, from the inbox stream's `assigned` event.
    const notice = tab.locator('#assigned-notice:not([hidden])');
    await notice.waitFor({ timeout: serviceWaitMs });
    t.regex(await notice.innerText(), /A conversation was assigned to you/);

    // Under "Mine", with her name and the team.
    await tab.click('#assignment-view button[data-view=mine]');
    t.is(await tab.getAttribute('#assignment-view button[data-view=mine]', 'aria-pressed'), 'true');
    const row = tab.locator(`#conversations li[data-conversation-id="${visitor.conversationId}"]`);
    await row.waitFor({ timeout: serviceWaitMs });
    await tab.locator(`#conversations li[data-conversation-id="${visitor.conversationId}"] .assignee:text-is("→ Ada")`).waitFor({
      timeout: serviceWaitMs,
    });
    t.is(await row.locator('.team').innerText(), 'Returns');
    // The team select names the tenant's teams; choosing hers keeps it listed.
    t.deepEqual(await tab.locator('#assignment-team option').allInnerTexts(), ['All teams', 'Returns', 'No team']);
    await tab.selectOption('#assignment-team', team.id);
    await row.waitFor({ timeout: serviceWaitMs });
    await tab.selectOption('#assignment-team', 'none');
    await row.waitFor({ state: 'detached', timeout: serviceWaitMs });
    await tab.selectOption('#assignment-team', '');
    await row.waitFor({ timeout: serviceWaitMs });

    // The notice opens it.
    await tab.click('#assigned-open');
    await tab.locator('#assigned-notice[hidden]').waitFor({ state: 'attached', timeout: serviceWaitMs });
    await tab.locator('#detail:not([hidden])').waitFor({ timeout: serviceWaitMs });
    await tab.waitForFunction(
      (id) => (document.getElementById('assign-agent') as HTMLSelectElement | null)?.value === id,
      ada.id,
      {
        timeout: serviceWaitMs,
      },
    );
    // The select shows the assignee at once and the tenant's agents once /agent/agents answered: wait for those.
    await tab.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('#assign-agent option'), (option) => option.textContent ?? '').some((text) =>
          text.includes('('),
        ),
      undefined,
      { timeout: serviceWaitMs },
    );
    const options = await tab.locator('#assign-agent option').allInnerTexts();
    t.is(options[0], 'Nobody');
    t.true(options.includes('Ada (available, 1)'), options.join(' | '));
    t.true(options.includes('Bob (offline, 0)'), options.join(' | '));
    t.regex(await tab.locator('#assign .assign-team').innerText(), /Returns/);
    const entries = tab.locator('#transcript li.message.assignment');
    await entries.first().waitFor({ timeout: serviceWaitMs });
    t.is(await entries.first().locator('.text').innerText(), 'Assigned to Ada (Returns), automatically.');

    // Reassigned to Bob: it leaves "Mine", and the transcript says who did it, privately.
    await tab.selectOption('#assign-agent', bob.id);
    await tab.click('#assign button[type=submit]');
    await tab.locator('#assign-note:text-is("Assigned to Bob.")').waitFor({ timeout: serviceWaitMs });
    await row.waitFor({ state: 'detached', timeout: serviceWaitMs });
    await tab.locator('#transcript li.message.assignment .text:text-is("Ada assigned it to Bob (Returns).")').waitFor({
      timeout: serviceWaitMs,
    });
    t.is(await entries.count(), 2);
    for (const entry of await entries.all()) {
      t.true((await entry.getAttribute('class'))?.includes('private'));
      t.regex(await entry.locator('.meta').innerText(), /^Private · Assignment · /);
    }
    t.is(await tab.inputValue('#assign-agent'), bob.id);
    const listed = await as(ada).get(`/agent/conversations?assignee=mine&status=all`);
    t.false(JSON.stringify(listed.body).includes(visitor.conversationId), "the API agrees: not Ada's now");

    // The agents are read again: Bob's load is his new conversation.
    await tab.locator('#assign-agent option:text-is("Bob (offline, 1)")').waitFor({ state: 'attached', timeout: serviceWaitMs });
    // Under "All", with Bob's name.
    await tab.click('#assignment-view button[data-view=all]');
    await tab.locator(`#conversations li[data-conversation-id="${visitor.conversationId}"] .assignee:text-is("→ Bob")`).waitFor({
      timeout: serviceWaitMs,
    });
    await tab.screenshot({ path: join(artifactsDir(), 'agent-assignment.png'), fullPage: true });

    // Ada takes it over; unassigning a conversation being answered is refused, in the API's words.
    await tab.click('#take-over');
    await tab.locator('#reply-text:not([disabled])').waitFor({ timeout: serviceWaitMs });
    await tab.selectOption('#assign-agent', '');
    await tab.click('#assign button[type=submit]');
    const refused = tab.locator('#assign-note.refused');
    await refused.waitFor({ timeout: serviceWaitMs });
    t.regex(await refused.innerText(), /Ada is answering this conversation: hand it back or close it instead/);

    // Availability from the header: the API's answer is shown.
    await tab.selectOption('#availability-choice', 'away');
    await tab.locator('#availability-note:text-is("Away ✓")').waitFor({ timeout: serviceWaitMs });
    t.like((await as(ada).get('/agent/availability')).body, { availability: 'away', chosen: 'away' });

    t.is(await tab.locator('#transcript img, #conversations img').count(), 0);
    // The refusal's 409 is the browser's one console line; nothing else (no script or CSP errors).
    t.is(
      consoleText('error')
        .replace(/Failed to load resource.*409.*/g, '')
        .trim(),
      '',
    );
  } finally {
    await close();
  }
});
