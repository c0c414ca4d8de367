import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { counterFields, createDayCounters, dayOf } from '#insights/day-counters.js';
import { createUser } from '#testing/api.js';
import { artifactsDir, pageWithConsole, serviceWaitMs } from '#testing/browser.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { usePageBed } from '#testing/page-bed.js';

/*
 * The Insights view of the agent inbox page in Debian's Chromium against the real stack: a tenant
 * admin reads an operator's figures (written to the day counters as the service writes them), sees
 * them as cards, a chart and tables, and downloads a table as CSV; an agent is told the view is for
 * admins.
 */

const bed = usePageBed(test, { CONTENT_GAPS_SETTLE_SECONDS: '1' });

async function signIn(page: Page, token: string) {
  await page.goto(`${bed.stack.api.url}/agent`);
  await page.fill('#token', token);
  await page.click('#sign-in button[type=submit]');
}

async function openInsights(page: Page, token: string) {
  await signIn(page, token);
  await page.click('#show-insights');
}

const card = (page: Page, title: string) =>
  page.locator('.card', { has: page.locator('.card-title', { hasText: title }) }).locator('.card-value');

test("an admin reads an operator's insights as cards, a chart and tables, downloads a table as CSV and marks a content gap addressed", async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const admin = await createUser(api, tenant.tenant.id, 'admin', 'Grace');
  const owner = { tenantId: tenant.tenant.id, operatorId: tenant.operator.id as string };
  const counters = createDayCounters(api.redis, api.config.redis.prefix);
  const today = dayOf(Date.now());
  const yesterday = dayOf(Date.now() - 86_400_000);
  for (const day of [yesterday, today]) {
    await counters.add(owner, day, {
      [counterFields.started('widget')]: 6,
      [counterFields.started('messaging')]: 2,
      [counterFields.closed('widget')]: 8,
      [counterFields.outcome('widget', 'resolved')]: 6,
      [counterFields.outcome('widget', 'handed_off')]: 1,
      [counterFields.outcome('widget', 'abandoned')]: 1,
      [counterFields.handoff('widget', 'visitor')]: 1,
      [counterFields.feedback('widget', 'up')]: 3,
      [counterFields.feedback('widget', 'down')]: 1,
      [counterFields.satisfaction('widget', 4)]: 1,
      [counterFields.firstReply('widget', 120)]: 1,
    });
    await counters.addCitations(owner, day, [{ key: `${tenant.kb}/returns`, title: 'Returns, "policy", and refunds' }]);
  }
  // The knowledge base is empty: the AI cannot answer, and the question becomes a content gap.
  const visitor = await tenant.chat.start();
  t.is((await tenant.chat.ask(visitor, 'Do you ship to Antarctica?')).reply.outcome, 'unknown');
  await eventually(
    () => api.request('GET', `/insights/content-gaps?operatorId=${owner.operatorId}`, { headers: admin.headers }),
    (response) => response.body.clusters?.length === 1 && response.body.pending === 0,
  );

  const { page, close } = await pageWithConsole(bed.browser);
  try {
    await openInsights(page, admin.token);
    await page.locator('.cards').waitFor({ timeout: serviceWaitMs });
    t.true(await page.locator('#main').isHidden(), 'the inbox gives way to the view');
    t.is(await card(page, 'Conversations').innerText(), '17', 'the counters written, and the conversation with a gap');
    t.is(await card(page, 'Resolved by the AI').innerText(), '75%');
    t.is(await card(page, 'Handed to a person').innerText(), '13%');
    t.is(await card(page, 'First agent reply').innerText(), '2 min');
    t.is(await card(page, 'Helpful answers').innerText(), '75%');
    t.is(await card(page, 'Satisfaction').innerText(), '4.0 / 5');
    t.is(await page.locator('.chart .column').count(), 30, 'a column a day of the last 30');
    t.is(await page.locator('.chart .column .segment.resolved').count(), 2, 'resolved ones on the two days with closings');
    const sources = page.locator('.panel', { hasText: 'Most cited sources' });
    t.deepEqual(await sources.locator('tbody td').allInnerTexts(), ['Returns, "policy", and refunds', '2']);
    const gap = page.locator('.gap', { hasText: 'Do you ship to Antarctica?' });
    t.regex(await gap.locator('.badge').first().innerText(), /1 asked/);
    await page.screenshot({ path: join(artifactsDir(), 'agent-insights.png'), fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      sources.locator('button', { hasText: 'Download CSV' }).click(),
    ]);
    t.regex(
      download.suggestedFilename(),
      new RegExp(`^top-sources-${owner.operatorId}-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const saved = join(artifactsDir(), download.suggestedFilename());
    await download.saveAs(saved);
    const csv = await readFile(saved, 'utf8');
    t.regex(csv, /"Returns, ""policy"", and refunds"/, 'a title with a comma and quotes is quoted');

    await gap.locator('input').fill('shipping-antarctica');
    await gap.locator('button', { hasText: 'Mark addressed' }).click();
    const addressed = page.locator('.gap .addressed');
    await addressed.waitFor({ timeout: serviceWaitMs });
    t.regex(
      await addressed.innerText(),
      /Addressed by article shipping-antarctica \(Grace, \d{4}-\d{2}-\d{2}\): asked 0 times since\./,
    );
  } finally {
    await close();
  }
});

test('an agent opening the Insights view is told it is for admins', async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const agent = await createUser(api, tenant.tenant.id, 'agent', 'Ada');
  const { page, close } = await pageWithConsole(bed.browser);
  try {
    await openInsights(page, agent.token);
    const said = page.locator('.insights-body .muted');
    await said.waitFor({ timeout: serviceWaitMs });
    t.regex(await said.innerText(), /role admin/);
    await page.click('#show-inbox');
    t.true(await page.locator('#insights').isHidden());
    t.true(await page.locator('#main').isVisible());
  } finally {
    await close();
  }
});

test('an agent opening a conversation sees how the visitor rated its answers, with their reason', async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const agent = await createUser(api, tenant.tenant.id, 'agent', 'Ada');
  const visitor = await tenant.chat.start({ contact: { name: 'Grace Hopper' } });
  const { reply } = await tenant.chat.ask(visitor, 'Do you ship to Antarctica?');
  const rated = await api.request('PUT', `/chat/conversations/${visitor.conversationId}/messages/${reply.id}/feedback`, {
    headers: visitor.headers,
    body: { rating: 'down', reason: 'I needed a yes or a no.' },
  });
  t.is(rated.status, 200);
  await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, { headers: visitor.headers });

  const { page, close } = await pageWithConsole(bed.browser);
  try {
    await signIn(page, agent.token);
    await page.locator(`#conversations li[data-conversation-id="${visitor.conversationId}"] button`).click();
    const answer = page.locator(`#transcript li[data-message-id="${reply.id}"]`);
    await answer.locator('.rating.down').waitFor({ timeout: serviceWaitMs });
    t.is(await answer.locator('.rating').innerText(), 'Rated not helpful: I needed a yes or a no.');
  } finally {
    await close();
  }
});
