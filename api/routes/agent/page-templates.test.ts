import test, { type ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { createUser } from '#testing/api.js';
import { launchChromium, pageWithConsole, type LaunchedChromium, serviceWaitMs } from '#testing/browser.js';
import { eventually } from '#testing/eventually.js';
import { graphErrors, startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { tearDown } from '#testing/teardown.js';

/*
 * The inbox page's template picker in Chromium against the real stack: once the customer's 24-hour
 * window has closed, the agent picks a registered template, fills its parameters and sends it.
 */

let stack: IngestionStack;
let platform: FakeMessagingPlatform;
let chromium: LaunchedChromium;
let browser: Browser;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  [stack, chromium] = await Promise.all([startIngestionStack({ GRAPH_API_BASE_URL: platform.url }), launchChromium()]);
  browser = chromium.browser;
});
test.after.always(() =>
  tearDown({ chromium: async () => chromium?.close(), ...stack?.closingSteps, platform: async () => platform?.close() }),
);

/**
 * A customer who wrote, a template registered on their connection, and the agent Ada holding their
 * conversation: what both tests start from.
 */
async function takenOverWithTemplate(t: ExecutionContext, template: { name: string; language: string; body: string }) {
  const api = stack.api;
  const c = await messagingTenant(api, platform);
  await c.send(c.text('Where is my order?'));
  const conversationId = (await eventually(
    () => c.conversationId(),
    (id) => id !== undefined,
    { timeoutMs: 30_000 },
  ))!;
  const admin = await createUser(api, c.tenant.tenant.id, 'admin');
  const agent = await createUser(api, c.tenant.tenant.id, 'agent', 'Ada');
  const registered = await api.request('POST', `/integrations/app-connections/${c.connectionId}/templates`, {
    headers: admin.headers,
    body: { ...template, category: 'utility' },
  });
  t.is(registered.status, 201);
  const path = `/agent/conversations/${conversationId}`;
  t.is((await api.request('POST', `${path}/take-over`, { headers: agent.headers })).status, 200);
  return { api, c, conversationId, agent, path };
}

/** Signs the agent in on the page and opens the conversation. */
async function openConversation(tab: Page, agentToken: string, conversationId: string): Promise<void> {
  await tab.goto(`${stack.api.url}/agent`);
  await tab.fill('#token', agentToken);
  await tab.click('#sign-in button[type=submit]');
  await tab.locator(`#conversations li[data-conversation-id="${conversationId}"] button`).click();
}

test('with the window closed, the page offers the templates with a field per parameter and sends one', async (t) => {
  const { api, c, conversationId, agent } = await takenOverWithTemplate(t, {
    name: 'order_update',
    language: 'en_US',
    body: 'Hello {{1}}, order {{2}} has shipped.',
  });
  platform.approveTemplate({ name: 'order_update', language: 'en_US', bodyParameters: 2 });
  await api.redis.hSet(`${api.config.redis.prefix}:messaging:conversation:${conversationId}`, {
    lastCustomerMessageAt: String(Date.now() - 25 * 3600 * 1000),
  });

  const page = await pageWithConsole(browser);
  try {
    const { page: tab } = page;
    await openConversation(tab, agent.token as string, conversationId);
    const picker = tab.locator('.extras form.template');
    await picker.waitFor({ timeout: serviceWaitMs });
    t.regex(await tab.innerText('#window'), /only an approved template/);
    t.is(await picker.locator('p').innerText(), 'Hello {{1}}, order {{2}} has shipped.');
    const fields = picker.locator('input');
    t.is(await fields.count(), 2);
    await fields.nth(0).fill('Grace');
    await fields.nth(1).fill('A-1042');
    await picker.locator('button[type=submit]').click();

    const line = tab.locator('#transcript li.message.agent', { hasText: 'Hello Grace, order A-1042 has shipped.' });
    await line.waitFor({ timeout: serviceWaitMs });
    const sent = await eventually(
      async () => c.received().filter((message) => message.body.type === 'template'),
      (all) => all.length > 0,
      { timeoutMs: 30_000 },
    );
    t.like(sent[0]!.body, { template: { name: 'order_update', language: { code: 'en_US' } } });
    t.is(page.consoleText('error'), '');
  } finally {
    await page.close();
  }
});

test('when the platform refuses a reply for the closed window while our clock reads it open, the page turns to templates at once', async (t) => {
  const { c, agent, conversationId, path } = await takenOverWithTemplate(t, {
    name: 'follow_up',
    language: 'en',
    body: 'Hello {{1}}, we are still on it.',
  });
  const api = stack.api;
  // The AI's answer and the notice that Ada joined have gone out: the next send is the reply.
  await eventually(
    async () => c.received(),
    (all) => all.length >= 2,
    { timeoutMs: 30_000 },
  );

  const page = await pageWithConsole(browser);
  try {
    const { page: tab } = page;
    await openConversation(tab, agent.token as string, conversationId);
    await tab.locator('.extras form.file').waitFor({ timeout: serviceWaitMs });
    t.regex(await tab.innerText('#window'), /Reply window open until/);

    platform.failNext(1, graphErrors.outsideWindow, { to: c.customer });
    const reply = await api.request('POST', `${path}/messages`, { headers: agent.headers, body: { text: 'Hello, Ada here.' } });
    t.is(reply.status, 202);
    await tab.locator('.extras form.template').waitFor({ timeout: serviceWaitMs });
    t.regex(await tab.innerText('#window'), /only an approved template/);
    t.notRegex(await tab.innerText('#window'), /open until/);
    t.regex(await tab.innerText('#problem'), /window_closed/);

    // The customer writes again: the window opens, and the file form is back.
    await c.send(c.text('Any news?'));
    await tab.locator('.extras form.file').waitFor({ timeout: serviceWaitMs });
    t.regex(await tab.innerText('#window'), /Reply window open until/);
    t.is(page.consoleText('error'), '');
  } finally {
    await page.close();
  }
});
