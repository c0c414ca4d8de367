import { join } from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { createUser } from '#testing/api.js';
import { artifactsDir, pageWithConsole, serviceWaitMs } from '#testing/browser.js';
import { chattingTenant } from '#testing/chat.js';
import { usePageBed } from '#testing/page-bed.js';

/*
 * Private notes on the inbox page in Chromium against the real stack: Ada writes a note mentioning
 * Bob; Bob's bell counts it at once, its list opens the conversation, where the note shows marked
 * private; the visitor's history never has it.
 */

const bed = usePageBed(test);

async function signIn(tab: Page, token: string) {
  await tab.goto(`${bed.stack.api.url}/agent`);
  await tab.fill('#token', token);
  await tab.click('#sign-in button[type=submit]');
}

test('a note mentioning a colleague: they are notified live, open it from the bell, and see it private', async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const ada = await createUser(api, tenant.tenant.id, 'agent', 'Ada');
  const bob = await createUser(api, tenant.tenant.id, 'agent', 'Bob');
  const visitor = await tenant.chat.start({ contact: { name: 'Grace' } });
  const text = 'Grace is a returning customer <img src=x onerror=alert(1)>, @Bob please check her refund';

  const adaPage = await pageWithConsole(bed.browser);
  const bobPage = await pageWithConsole(bed.browser);
  try {
    const bobTab = bobPage.page;
    await signIn(bobTab, bob.token as string);
    const bell = bobTab.locator('#notifications-toggle');
    await bell.waitFor({ timeout: serviceWaitMs });
    await bobTab.locator('#live.on').waitFor({ timeout: serviceWaitMs });
    t.is(await bell.innerText(), 'Notifications');

    const adaTab = adaPage.page;
    await signIn(adaTab, ada.token as string);
    await adaTab.locator(`li[data-conversation-id="${visitor.conversationId}"] button`).click();
    await adaTab.locator('#transcript li.message').first().waitFor({ timeout: serviceWaitMs });
    await adaTab.fill('#note-text', text);
    await adaTab.click('#note button[type=submit]');
    const adaNote = adaTab.locator('#transcript li.message.private');
    await adaNote.waitFor({ timeout: serviceWaitMs });
    t.is(await adaNote.count(), 1, 'once, though both the answer and the stream bring it');
    t.is(await adaTab.inputValue('#note-text'), '');

    // Bob's bell counts it at once; its list opens the conversation.
    await bobTab.locator('#notifications-toggle.unread').waitFor({ timeout: serviceWaitMs });
    t.is(await bell.innerText(), 'Notifications (1)');
    await bell.click();
    const entry = bobTab.locator(`#notifications li.unread[data-conversation-id="${visitor.conversationId}"]`);
    t.regex(await entry.innerText(), /Ada mentioned you/);
    await entry.locator('button').click();

    const note = bobTab.locator('#transcript li.message.private');
    await note.waitFor({ timeout: serviceWaitMs });
    t.is(await note.locator('.text').innerText(), text, 'as text: the markup in it is not markup');
    t.regex(await note.locator('.meta').innerText(), /^Private note · Ada/);
    t.regex(await note.locator('.mentions').innerText(), /Mentions Bob/);
    t.is(await bobTab.locator('#transcript img').count(), 0);
    await bobTab.locator('#notifications-toggle:not(.unread)').waitFor({ timeout: serviceWaitMs });
    t.is(await bell.innerText(), 'Notifications', 'read once opened');
    await bobTab.screenshot({ path: join(artifactsDir(), 'agent-notes.png'), fullPage: true });

    const history = await tenant.chat.history(visitor);
    t.is(history.status, 200);
    t.false(JSON.stringify(history.body).includes('returning customer'), "not in the visitor's history");
    t.is(adaPage.consoleText('error'), '', 'no script or CSP errors');
    t.is(bobPage.consoleText('error'), '');
  } finally {
    await Promise.all([adaPage.close(), bobPage.close()]);
  }
});
