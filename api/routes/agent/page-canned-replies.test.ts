import { join } from 'node:path';
import test from 'ava';
import { createUser } from '#testing/api.js';
import { artifactsDir, pageWithConsole, serviceWaitMs } from '#testing/browser.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { usePageBed } from '#testing/page-bed.js';

/*
 * Canned replies on the inbox page in Chromium against the real stack: the agent types `/ref` in the
 * reply box, picks the tenant's refund reply, sees it filled in for the customer and sends it; then
 * manages their own replies in the panel, the API's refusal shown as it said it.
 */

const bed = usePageBed(test, { CHAT_VISITOR_PER_MINUTE: '1000' });

test('an agent picks a canned reply by its shortcut, sends it filled in, and manages their own in the panel', async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const [ada, admin] = await Promise.all([
    createUser(api, tenant.tenant.id, 'agent', 'Ada'),
    createUser(api, tenant.tenant.id, 'admin', 'Alex'),
  ]);
  for (const [shortcut, title, text] of [
    ['refund', 'Refund on its way', 'Hi {{contact.first_name}}, {{agent.name}} here: your refund is on its way.'],
    ['hours', 'Opening hours', 'We answer from 9:00 to 17:00.'],
  ])
    t.is(
      (
        await api.request('POST', '/agent/canned-replies', {
          headers: admin.headers,
          body: { shortcut, title, text, scope: 'tenant' },
        })
      ).status,
      201,
    );
  const visitor = await tenant.chat.start({ contact: { name: 'Grace Hopper', email: 'grace@example.com' } });
  await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, { headers: visitor.headers });
  const path = `/agent/conversations/${visitor.conversationId}`;
  await eventually(
    () => api.request('GET', path, { headers: ada.headers }),
    (response) => response.body?.status === 'waiting_for_agent',
  );
  t.is((await api.request('POST', `${path}/take-over`, { headers: ada.headers })).status, 200);

  const page = await pageWithConsole(bed.browser);
  try {
    const { page: tab } = page;
    await tab.goto(`${api.url}/agent`);
    await tab.fill('#token', ada.token as string);
    await tab.click('#sign-in button[type=submit]');
    await tab.locator(`#conversations li[data-conversation-id="${visitor.conversationId}"] button`).click();
    await tab.locator('#send:not([disabled])').waitFor({ timeout: serviceWaitMs });

    // `/ref` offers the refund reply (and not the hours); Enter puts it in the box, filled in by the server.
    await tab.locator('#reply-text').pressSequentially('Hello! /ref');
    const suggestion = tab.locator('#canned-suggestions li[data-shortcut="refund"]');
    await suggestion.waitFor();
    t.is(await tab.locator('#canned-suggestions li').count(), 1);
    t.regex(await suggestion.innerText(), /\/refund\s+Refund on its way/);
    t.is(await suggestion.getAttribute('aria-selected'), 'true');
    await tab.locator('#reply-text').press('Enter');
    const filled = 'Hello! Hi Grace, Ada here: your refund is on its way.';
    await tab.waitForFunction(
      (expected) => (document.querySelector('#reply-text') as HTMLTextAreaElement).value === expected,
      filled,
    );
    t.true(await tab.locator('#canned-suggestions').isHidden(), 'the list closes once one is chosen');

    await tab.click('#send');
    await tab
      .locator('#transcript li.message.agent', { hasText: 'Hi Grace, Ada here: your refund is on its way.' })
      .waitFor({ timeout: serviceWaitMs });
    const history = await eventually(
      () => tenant.chat.history(visitor),
      (answer) => answer.body.messages.some((message: { author: string }) => message.author === 'agent'),
    );
    t.true(
      history.body.messages.some((message: { text: string }) => message.text === filled),
      'the visitor reads it filled in',
    );

    // The panel: the tenant's replies are not hers to edit; her own are.
    await tab.click('#show-canned-replies');
    const panel = tab.locator('#canned-replies');
    await panel.locator('li[data-shortcut="refund"]').waitFor();
    t.is(await panel.locator('li[data-shortcut="refund"] button').count(), 0, 'no Edit or Delete on a tenant reply for an agent');

    await panel.getByLabel('Shortcut', { exact: true }).fill('thanks');
    await panel.getByLabel('Title', { exact: true }).fill('Thanks <b>bold</b>');
    await panel.getByLabel('Text', { exact: true }).fill('Thank you, {{contact.nmae}}!');
    await panel.locator('button[type=submit]').click();
    await panel.locator('.error:not([hidden])').waitFor();
    t.regex(await panel.locator('.error').innerText(), /Unknown placeholder \{\{contact\.nmae\}\}/);

    await panel.getByLabel('Text', { exact: true }).fill('Thank you, {{contact.first_name | there}}!');
    await panel.locator('button[type=submit]').click();
    const mine = panel.locator('li[data-shortcut="thanks"]');
    await mine.waitFor();
    t.regex(await mine.innerText(), /Thanks <b>bold<\/b>/, 'as text, never markup');
    t.is(await panel.locator('b').count(), 0);
    t.regex(await mine.innerText(), /Only me/);

    await mine.getByRole('button', { name: 'Edit' }).click();
    await panel.getByLabel('Title', { exact: true }).fill('Thanks');
    await panel.locator('button[type=submit]').click();
    await panel.locator('li[data-shortcut="thanks"] .title', { hasText: /^Thanks$/ }).waitFor();
    await tab.screenshot({ path: join(artifactsDir(), 'agent-canned-replies.png'), fullPage: true });

    await mine.getByRole('button', { name: 'Delete' }).click();
    await mine.getByRole('button', { name: 'Really delete?' }).click();
    await mine.waitFor({ state: 'detached' });
    const left = await api.request('GET', '/agent/canned-replies', { headers: ada.headers });
    t.deepEqual(
      left.body.cannedReplies.map(({ shortcut }: { shortcut: string }) => shortcut),
      ['hours', 'refund'],
    );
    await panel.getByRole('button', { name: 'Close' }).click();
    t.false(await panel.isVisible());

    t.is(
      page
        .consoleText('error')
        .replace(/Failed to load resource.*400.*/g, '')
        .trim(),
      '',
    );
  } finally {
    await page.close();
  }
});
