import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { artifactsDir, pageWithConsole, serviceWaitMs } from '#testing/browser.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { usePageBed } from '#testing/page-bed.js';

/*
 * The agent inbox page in Debian's Chromium against the real stack: an agent signs in with their
 * token, sees a widget visitor waiting, takes the conversation over and chats with them, both ways
 * live.
 */

const bed = usePageBed(test, { CHAT_VISITOR_PER_MINUTE: '1000' });

test('an agent signs in, takes a waiting widget conversation over and chats with the visitor live', async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const agent = (
    await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, {
      name: 'Ada Agent',
      email: `${randomUUID()}@shop.example`,
      role: 'agent',
    })
  ).body;
  const visitor = await tenant.chat.start({ contact: { name: 'Grace Hopper', email: 'grace@example.com' } });
  await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, { headers: visitor.headers });

  const page = await pageWithConsole(bed.browser);
  try {
    const { page: tab } = page;
    const response = await tab.goto(`${api.url}/agent`);
    t.is(response?.status(), 200);
    t.regex(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);

    await tab.fill('#token', agent.token);
    await tab.click('#sign-in button[type=submit]');
    const item = tab.locator(`#conversations li[data-conversation-id="${visitor.conversationId}"]`);
    await item.waitFor({ timeout: serviceWaitMs });
    t.regex(await item.innerText(), /Grace Hopper/);
    t.is(await item.locator('.badge.widget').innerText(), 'Widget');
    t.is(await item.locator('.badge.status-waiting_for_agent').innerText(), 'Waiting');
    t.is(await tab.evaluate(() => sessionStorage.getItem('agentInboxToken')), agent.token, 'the token stays in the tab');

    await item.locator('button').click();
    await tab.locator('#transcript li[data-message-id="greeting"]').waitFor();
    t.true(await tab.locator('#send').isDisabled(), 'no reply before taking over');

    await tab.click('#take-over');
    await tab.locator('#badges .badge.status-agent').waitFor();
    await tab.locator('#send:not([disabled])').waitFor();

    await tab.fill('#reply-text', 'Hello Grace, Ada here. How can I help?');
    await tab.click('#send');
    const reply = tab.locator('#transcript li.message.agent', { hasText: 'Hello Grace, Ada here.' });
    await reply.waitFor({ timeout: serviceWaitMs });
    t.regex(await reply.innerText(), /Ada Agent/);
    // The reply can show (live, from the stream) before the send's own answer empties the box.
    await tab.waitForFunction(() => (document.querySelector('#reply-text') as HTMLTextAreaElement).value === '');
    t.is(await tab.inputValue('#reply-text'), '', 'the box is emptied once sent');
    const history = await eventually(
      () => tenant.chat.history(visitor),
      (answer) => answer.body.messages.some((message: { author: string }) => message.author === 'agent'),
    );
    t.true(history.body.messages.some((message: { text: string }) => message.text === 'Hello Grace, Ada here. How can I help?'));

    // The visitor answers; their words appear live, as text, never as markup.
    const markup = 'My parcel <img src=x onerror="document.body.dataset.pwned=1"> never came <b>at all</b>';
    await tenant.chat.ask(visitor, markup);
    const visitorLine = tab.locator('#transcript li.message.visitor', { hasText: 'My parcel' });
    await visitorLine.waitFor({ timeout: serviceWaitMs });
    t.regex(await visitorLine.innerText(), /<img src=x onerror=/);
    t.is(await tab.locator('#transcript img, #transcript b').count(), 0);
    t.is(await tab.evaluate(() => document.body.dataset.pwned), undefined);

    // The list follows too: the conversation now shows who has it.
    await tab.locator(`#conversations li[data-conversation-id="${visitor.conversationId}"] .badge.status-agent`).waitFor();

    // A second agent's refusal comes back as the API's message.
    const bob = (
      await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, {
        name: 'Bob',
        email: `${randomUUID()}@shop.example`,
        role: 'agent',
      })
    ).body;
    const other = await pageWithConsole(bed.browser);
    try {
      await other.page.goto(`${api.url}/agent`);
      await other.page.fill('#token', bob.token);
      await other.page.click('#sign-in button[type=submit]');
      await other.page.locator(`#conversations li[data-conversation-id="${visitor.conversationId}"] button`).click();
      await other.page.locator('#transcript li.message.agent').waitFor();
      await other.page.click('#take-over');
      await other.page.locator('#error:not([hidden])').waitFor();
      t.regex(await other.page.innerText('#error'), /Ada Agent has already taken this conversation over/);
      t.is(
        other
          .consoleText('error')
          .replace(/Failed to load resource.*409.*/g, '')
          .trim(),
        '',
      );
    } finally {
      await other.close();
    }

    await tab.screenshot({ path: join(artifactsDir(), 'agent-inbox.png'), fullPage: true });
    t.is(page.consoleText('error'), '', `no script or CSP errors: ${page.console.map((m) => m.location().url).join()}`);
  } finally {
    await page.close();
  }
});
