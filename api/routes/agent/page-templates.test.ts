import test from 'ava';
import type { Browser } from 'playwright-core';
import { createUser } from '#testing/api.js';
import { launchChromium, pageWithConsole, type LaunchedChromium } from '#testing/browser.js';
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

test('with the window closed, the page offers the templates with a field per parameter and sends one', async (t) => {
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
    body: { name: 'order_update', language: 'en_US', category: 'utility', body: 'Hello {{1}}, order {{2}} has shipped.' },
  });
  t.is(registered.status, 201);
  platform.approveTemplate({ name: 'order_update', language: 'en_US', bodyParameters: 2 });
  t.is((await api.request('POST', `/agent/conversations/${conversationId}/take-over`, { headers: agent.headers })).status, 200);
  await api.redis.hSet(`${api.config.redis.prefix}:messaging:conversation:${conversationId}`, {
    lastCustomerMessageAt: String(Date.now() - 25 * 3600 * 1000),
  });

  const page = await pageWithConsole(browser);
  try {
    const { page: tab } = page;
    await tab.goto(`${api.url}/agent`);
    await tab.fill('#token', agent.token as string);
    await tab.click('#sign-in button[type=submit]');
    await tab.locator(`#conversations li[data-conversation-id="${conversationId}"] button`).click();
    const picker = tab.locator('.extras form.template');
    await picker.waitFor({ timeout: 15_000 });
    t.regex(await tab.innerText('#window'), /only an approved template/);
    t.is(await picker.locator('p').innerText(), 'Hello {{1}}, order {{2}} has shipped.');
    const fields = picker.locator('input');
    t.is(await fields.count(), 2);
    await fields.nth(0).fill('Grace');
    await fields.nth(1).fill('A-1042');
    await picker.locator('button[type=submit]').click();

    const line = tab.locator('#transcript li.message.agent', { hasText: 'Hello Grace, order A-1042 has shipped.' });
    await line.waitFor({ timeout: 15_000 });
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
    body: { name: 'follow_up', language: 'en', category: 'utility', body: 'Hello {{1}}, we are still on it.' },
  });
  t.is(registered.status, 201);
  const path = `/agent/conversations/${conversationId}`;
  t.is((await api.request('POST', `${path}/take-over`, { headers: agent.headers })).status, 200);
  // The AI's answer and the notice that Ada joined have gone out: the next send is the reply.
  await eventually(
    async () => c.received(),
    (all) => all.length >= 2,
    { timeoutMs: 30_000 },
  );

  const page = await pageWithConsole(browser);
  try {
    const { page: tab } = page;
    await tab.goto(`${api.url}/agent`);
    await tab.fill('#token', agent.token as string);
    await tab.click('#sign-in button[type=submit]');
    await tab.locator(`#conversations li[data-conversation-id="${conversationId}"] button`).click();
    await tab.locator('.extras form.file').waitFor({ timeout: 15_000 });
    t.regex(await tab.innerText('#window'), /Reply window open until/);

    platform.failNext(1, graphErrors.outsideWindow, { to: c.customer });
    const reply = await api.request('POST', `${path}/messages`, { headers: agent.headers, body: { text: 'Hello, Ada here.' } });
    t.is(reply.status, 202);
    await tab.locator('.extras form.template').waitFor({ timeout: 15_000 });
    t.regex(await tab.innerText('#window'), /only an approved template/);
    t.notRegex(await tab.innerText('#window'), /open until/);
    t.regex(await tab.innerText('#problem'), /window_closed/);

    // The customer writes again: the window opens, and the file form is back.
    await c.send(c.text('Any news?'));
    await tab.locator('.extras form.file').waitFor({ timeout: 15_000 });
    t.regex(await tab.innerText('#window'), /Reply window open until/);
    t.is(page.consoleText('error'), '');
  } finally {
    await page.close();
  }
});
