import { join } from 'node:path';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { createUser } from '#testing/api.js';
import { artifactsDir, launchChromium, pageWithConsole, type LaunchedChromium, serviceWaitMs } from '#testing/browser.js';
import { eventually } from '#testing/eventually.js';
import {
  graphErrors,
  startFakeMessagingPlatform,
  statusUpdate,
  type FakeMessagingPlatform,
} from '#testing/fake-messaging-platform.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { shopItems } from '#testing/shop-content.js';
import { tearDown } from '#testing/teardown.js';

/*
 * The agent inbox page with a messaging customer, in Debian's Chromium against the real stack and the
 * fake platform: the customer's number beside their name, each message's delivery as ticks moving on
 * live, and a message refused for the closed window shown as the reason the customer waits for a person.
 */

let stack: IngestionStack;
let platform: FakeMessagingPlatform;
let chromium: LaunchedChromium;
let browser: Browser;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  [stack, chromium] = await Promise.all([
    startIngestionStack({ GRAPH_API_BASE_URL: platform.url, CONVERSATION_IDLE_MINUTES: '30' }),
    launchChromium(),
  ]);
  browser = chromium.browser;
});
test.after.always(async () => {
  await tearDown({ chromium: async () => chromium?.close(), ...stack?.closingSteps });
  await platform?.close();
});

test("the page shows the customer's number, delivery ticks moving live, and why the window handed them over", async (t) => {
  const connected = await messagingTenant(stack.api, platform, [shopItems.returns, shopItems.shipping]);
  const agent = await createUser(stack.api, connected.tenant.tenant.id as string, 'agent', 'Ada');
  await connected.send(connected.text('How many days do I have to return an item?'));
  const [answer] = await eventually(
    async () => connected.received(),
    (sent) => sent.length >= 1,
    { timeoutMs: 30_000 },
  );
  const conversationId = (await connected.conversationId())!;
  await eventually(
    () => stack.api.request('GET', `/agent/conversations/${conversationId}`, { headers: agent.headers }),
    (read) => read.body.messages?.some((m: any) => m.author === 'ai' && m.delivery?.status === 'sent'),
  );

  const page = await pageWithConsole(browser);
  try {
    const { page: tab } = page;
    await tab.goto(`${stack.api.url}/agent`);
    await tab.fill('#token', agent.token);
    await tab.click('#sign-in button[type=submit]');
    const item = tab.locator(`li[data-conversation-id="${conversationId}"]`);
    await item.waitFor({ timeout: serviceWaitMs });
    t.regex(await item.innerText(), new RegExp(`Grace · \\+${connected.customer}`));

    await item.locator('button').click();
    const aiTicks = tab.locator('#transcript li.message.ai .ticks').first();
    await tab.locator('#transcript li.message.ai .ticks.sent').waitFor({ timeout: serviceWaitMs });
    t.regex(await tab.innerText('#contact'), new RegExp(`Grace · \\+${connected.customer}`));
    t.is(await aiTicks.innerText(), '✓');
    t.is(await tab.locator('#transcript li.message.visitor .ticks').count(), 0, 'the customer’s own messages have none');

    const status = (value: 'delivered' | 'read') =>
      connected.send(
        statusUpdate({
          phoneNumberId: connected.phoneNumberId,
          messageId: answer!.messageId,
          status: value,
          recipientId: connected.customer,
        }),
      );
    await status('read');
    await tab.locator('#transcript li.message.ai .ticks.read').waitFor({ timeout: serviceWaitMs });
    await status('delivered');
    t.is(await tab.locator('#transcript li.message.ai .ticks.read').count(), 1, 'a late delivered does not take it back');

    // The next answer is refused at once for the closed window: the customer waits for a person, and the page says why.
    platform.failNext(1, graphErrors.outsideWindow, { to: connected.customer });
    await connected.send(connected.text('How long does standard delivery take?'));
    await tab.locator('#transcript li.message.ai .ticks.failed').waitFor({ timeout: serviceWaitMs });
    await tab.locator('#badges .badge.status-waiting_for_agent').waitFor({ timeout: serviceWaitMs });
    await tab.locator('#problem:not([hidden])').waitFor({ timeout: serviceWaitMs });
    t.regex(await tab.innerText('#problem'), /Handed to a person: the reply window has closed\..*\[window_closed\]/);
    t.regex((await tab.locator('#transcript li.message.ai .ticks.failed').getAttribute('title')) ?? '', /window_closed/);
    // Beside our code, the platform's own number and title, which its documentation is indexed by.
    t.regex(await tab.innerText('#problem'), /Window closed \(WhatsApp 131047: Re-engagement message\)/);
    t.regex(
      (await tab.locator('#transcript li.message.ai .ticks.failed').getAttribute('title')) ?? '',
      /^Not delivered: Window closed \(WhatsApp 131047: Re-engagement message\)/,
    );

    await tab.screenshot({ path: join(artifactsDir(), 'agent-inbox-messaging.png'), fullPage: true });
    t.is(page.consoleText('error'), '', 'no script or CSP errors');
  } finally {
    await page.close();
  }
});
