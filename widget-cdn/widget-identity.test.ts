import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Page } from 'playwright-core';
import { createUser } from '#testing/api.js';
import { hmacIdentityToken, jwtIdentityToken } from '#testing/identity.js';
import { embed, hostPage, pageWithConsole, startWidgetBed, type WidgetBed } from '#testing/widget-bed.js';
import { serviceWaitMs } from '#testing/browser.js';

/*
 * Verified visitors in Debian's Chromium against the real stack (docs/widget.md, "Visitor identity"):
 * the page passes a token its server signed, the conversation is verified, the same visitor on
 * another device (a fresh browser context) continues it or lists their conversations (reads a closed
 * one, starts a new one), and an operator requiring verification (told by `/chat/config`) turns a
 * visitor without a token away with an `error` event and a notice before anything is started.
 */

let bed: WidgetBed;
let secret: string;
let admin: { headers: Record<string, string> };
let agent: { headers: Record<string, string> };
test.before(async () => {
  bed = await startWidgetBed();
  admin = await createUser(bed.stack.api, bed.tenantId, 'admin', 'Admin');
  agent = await createUser(bed.stack.api, bed.tenantId, 'agent', 'Agent');
  const created = await bed.stack.api.request('POST', `/integrations/operators/${bed.operatorId}/identity-secret`, {
    headers: admin.headers,
  });
  secret = created.body.secret;
});
test.after.always(() => bed?.close());

const recorder = `window.__errors = []; window.__ready = false;`;

/** A fresh browser context (another device) on the shop's site with `init` given `identity` (a script expression). */
async function device(identity: string | undefined) {
  const session = await pageWithConsole(bed.browser, {});
  await load(session.page, identity);
  return session;
}

/** Loads a page of the shop's site in `page`, with `init` given `identity`, and waits for the widget. */
async function load(page: Page, identity: string | undefined) {
  const path = `/${randomUUID()}`;
  const options = `{ operatorKey: ${JSON.stringify(bed.operatorKey)}${identity ? `, identityToken: ${identity}` : ''} }`;
  const init = `widget('on', 'error', (e) => window.__errors.push(e)); widget('on', 'ready', () => (window.__ready = true)); widget('init', ${options});`;
  bed.site.page(path, hostPage(embed.latest(bed.files, init)));
  await page.addInitScript(recorder);
  await page.goto(bed.site.url(path));
  await page.waitForFunction(() => (window as any).__ready === true, undefined, { timeout: serviceWaitMs });
}

const savedConversation = (page: Page) =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(`kb-widget:${key}`) ?? 'null'), bed.operatorKey);

const inWidget = (selector: string) => `[data-kb-widget] ${selector}`;
const texts = (page: Page, author: string) =>
  page.locator(inWidget(`[data-el=message][data-author=${author}] [data-el=text]`)).allTextContents();

/** Sends a question and waits for its final answer (the AI messages shown before it: the greeting, earlier answers). */
async function sendAndWaitForAnswer(page: Page, question: string, aiMessagesBefore = 1) {
  await page.locator(inWidget('[data-el=input]')).fill(question);
  await page.locator(inWidget('[data-el=input]')).press('Enter');
  await page.waitForFunction(
    ([selector, n]) =>
      document.querySelector('[data-kb-widget]')!.shadowRoot!.querySelectorAll(selector as string).length > (n as number),
    ['[data-el=message][data-author=ai]:not([data-streaming])', aiMessagesBefore] as const,
    { timeout: serviceWaitMs },
  );
}

test('a verified visitor chats, then continues the same conversation from another device', async (t) => {
  const userId = `customer-${randomUUID()}`;
  const laptop = await device(JSON.stringify(hmacIdentityToken(secret, userId)));
  await laptop.page.evaluate(() => (window as any).widget('open'));
  await sendAndWaitForAnswer(laptop.page, 'How many days do I have to return an item?');
  const saved = await laptop.page.evaluate(
    (key) => JSON.parse(localStorage.getItem(`kb-widget:${key}`) ?? 'null'),
    bed.operatorKey,
  );
  const conversation = await bed.stack.api.request('GET', `/agent/conversations/${saved.conversationId}`, {
    headers: agent.headers,
  });
  t.like(conversation.body.contact, { userId, verified: true });
  t.is(saved.userId, userId, 'the saved conversation is bound to its user');

  // The phone has nothing saved; its page gives a function that returns a freshly signed JWT.
  const phone = await device(
    `() => Promise.resolve(${JSON.stringify(jwtIdentityToken(secret, { sub: userId, name: 'Grace' }))})`,
  );
  await phone.page.evaluate(() => (window as any).widget('open'));
  await phone.page.waitForFunction(
    (selector) => document.querySelector('[data-kb-widget]')!.shadowRoot!.querySelectorAll(selector).length > 0,
    '[data-el=message][data-author=visitor]',
    { timeout: serviceWaitMs },
  );
  t.deepEqual(await texts(phone.page, 'visitor'), ['How many days do I have to return an item?']);
  const phoneSaved = await phone.page.evaluate(
    (key) => JSON.parse(localStorage.getItem(`kb-widget:${key}`) ?? 'null'),
    bed.operatorKey,
  );
  t.is(phoneSaved.conversationId, saved.conversationId, 'the same conversation continues');
  await sendAndWaitForAnswer(phone.page, 'How long does shipping take?', 2);
  t.deepEqual(await texts(phone.page, 'visitor'), ['How many days do I have to return an item?', 'How long does shipping take?']);
  t.deepEqual(await phone.page.evaluate(() => (window as any).__errors), []);

  // On the laptop's browser another user signs in, then no one: neither continues the first user's conversation.
  for (const identity of [JSON.stringify(hmacIdentityToken(secret, `customer-${randomUUID()}`)), undefined]) {
    // The laptop still remembers the first user's conversation.
    await laptop.page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [`kb-widget:${bed.operatorKey}`, JSON.stringify(saved)],
    );
    const page = await laptop.page.context().newPage();
    await load(page, identity);
    await page.evaluate(() => (window as any).widget('open'));
    await page.locator(inWidget('[data-el=message][data-author=ai]')).first().waitFor();
    t.deepEqual(await texts(page, 'visitor'), []);
    t.is((await savedConversation(page))?.conversationId, undefined);
    await page.close();
  }
  // The first user, back on the laptop, continues it again.
  const again = await laptop.page.context().newPage();
  await load(again, JSON.stringify(hmacIdentityToken(secret, userId)));
  await again.evaluate(() => (window as any).widget('open'));
  await again.locator(inWidget('[data-el=message][data-author=visitor]')).first().waitFor();
  t.is((await texts(again, 'visitor'))[0], 'How many days do I have to return an item?');
  await laptop.close();
  await phone.close();
});

test('an operator requiring verification: a visitor without a token gets an identity_required error event and a notice on opening, and starts nothing', async (t) => {
  const path = `/integrations/operators/${bed.operatorId}/identity`;
  await bed.stack.api.request('PATCH', path, { headers: admin.headers, body: { required: true } });
  try {
    const anonymous = await device(undefined);
    const starts: string[] = [];
    anonymous.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/chat/conversations')) starts.push(request.url());
    });
    // Told by /chat/config: the notice and the event come when the window opens, before any message.
    await anonymous.page.evaluate(() => (window as any).widget('open'));
    await anonymous.page.waitForFunction(() => (window as any).__errors.length > 0, undefined, { timeout: serviceWaitMs });
    const [error] = await anonymous.page.evaluate(() => (window as any).__errors);
    t.is(error.code, 'identity_required');
    t.regex((await anonymous.page.locator(inWidget('[data-el=status]')).textContent()) ?? '', /sign in/i);
    await anonymous.page.locator(inWidget('[data-el=input]')).fill('Hello?');
    await anonymous.page.locator(inWidget('[data-el=input]')).press('Enter');
    await anonymous.page.waitForFunction(() => (window as any).__errors.length > 1, undefined, { timeout: serviceWaitMs });
    t.deepEqual(
      (await anonymous.page.evaluate(() => (window as any).__errors)).map((e: { code: string }) => e.code),
      ['identity_required', 'identity_required'],
    );
    t.deepEqual(starts, [], 'no conversation start was tried');
    await anonymous.close();

    const signedIn = await device(JSON.stringify(hmacIdentityToken(secret, `customer-${randomUUID()}`)));
    await signedIn.page.evaluate(() => (window as any).widget('open'));
    await sendAndWaitForAnswer(signedIn.page, 'How many days do I have to return an item?');
    t.deepEqual(await signedIn.page.evaluate(() => (window as any).__errors), []);
    await signedIn.close();
  } finally {
    await bed.stack.api.request('PATCH', path, { headers: admin.headers, body: { required: false } });
  }
});

test('a verified visitor on another device lists their conversations, reads a closed one, and starts a new one', async (t) => {
  const userId = `customer-${randomUUID()}`;
  const laptop = await device(JSON.stringify(hmacIdentityToken(secret, userId)));
  await laptop.page.evaluate(() => (window as any).widget('open'));
  await sendAndWaitForAnswer(laptop.page, 'How many days do I have to return an item?');
  const first = await savedConversation(laptop.page);
  const closing = await bed.stack.api.request('POST', `/agent/conversations/${first.conversationId}/close`, {
    headers: agent.headers,
  });
  t.true(closing.status < 300, JSON.stringify(closing.body));
  await laptop.close();

  // The phone: nothing open to continue, so the greeting; the list is a button away.
  const phone = await device(JSON.stringify(hmacIdentityToken(secret, userId)));
  const { page } = phone;
  await page.evaluate(() => (window as any).widget('open'));
  const toggle = page.locator(inWidget('[data-el=history-toggle]'));
  await toggle.waitFor({ state: 'visible', timeout: serviceWaitMs });
  t.is(await toggle.getAttribute('aria-label'), 'Your conversations');
  await toggle.click();
  const past = page.locator(inWidget('[data-el=history] button[data-status]'));
  await past.first().waitFor();
  t.is(await toggle.getAttribute('aria-expanded'), 'true');
  t.is(await past.count(), 1);
  t.is(await past.first().getAttribute('data-status'), 'closed');
  t.regex((await past.first().textContent()) ?? '', /^How many days do I have to return an item\?.*Ended$/);
  t.true(await page.locator(inWidget('[data-el=log]')).isHidden(), 'the list takes the place of the log');

  // By keyboard: focus is on "New conversation"; Tab reaches the closed conversation, Enter opens it.
  const focused = () => page.evaluate(() => document.querySelector('[data-kb-widget]')!.shadowRoot!.activeElement?.textContent);
  t.is(await focused(), 'New conversation');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.locator(inWidget('[data-el=message][data-author=visitor]')).first().waitFor();
  t.deepEqual(await texts(page, 'visitor'), ['How many days do I have to return an item?']);
  t.true((await texts(page, 'ai')).length >= 2, 'the greeting and the answer');
  t.true(await page.locator(inWidget('[data-el=composer]')).isHidden(), 'a closed conversation is read only');
  t.regex((await page.locator(inWidget('[data-el=status]')).textContent()) ?? '', /ended/);
  t.is(await savedConversation(page), null, 'a closed conversation is not continued on this device');

  // "New conversation" under the transcript: the greeting only, the input back, and a new verified conversation.
  await page.locator(inWidget('[data-el=restart]')).click();
  t.deepEqual(await texts(page, 'visitor'), []);
  t.true(await page.locator(inWidget('[data-el=input]')).isVisible());
  await sendAndWaitForAnswer(page, 'How long does shipping take?');
  const second = await savedConversation(page);
  t.not(second.conversationId, first.conversationId);
  const view = await bed.stack.api.request('GET', `/agent/conversations/${second.conversationId}`, { headers: agent.headers });
  t.like(view.body.contact, { userId, verified: true });

  // The list again: the new conversation first (open, the one shown), then the closed one.
  await toggle.click();
  await past.nth(1).waitFor();
  t.deepEqual(
    await past.evaluateAll((buttons) => buttons.map((b) => [b.getAttribute('data-status'), b.getAttribute('aria-current')])),
    [
      ['ai', 'true'],
      ['closed', null],
    ],
  );
  t.regex((await past.first().textContent()) ?? '', /^How long does shipping take\?.*Open$/);
  await toggle.click();
  t.true(await page.locator(inWidget('[data-el=log]')).isVisible(), 'the toggle goes back to the conversation');
  t.deepEqual(await page.evaluate(() => (window as any).__errors), []);
  await phone.close();
});
