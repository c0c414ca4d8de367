import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import type { Page } from 'playwright-core';
import { artifactsDir, serviceWaitMs } from '#testing/browser.js';
import { eventually } from '#testing/eventually.js';
import { ask, embed, hostPage, inWidget, pageWithConsole, startWidgetBed, type WidgetBed } from '#testing/widget-bed.js';

/*
 * Visitors' feedback in the widget (docs/insights.md), in Debian's Chromium against the real stack:
 * rating an answer (and changing one's mind, with a reason), and scoring a conversation an agent
 * closed. What the service stored is read back through the chat API.
 */

let bed: WidgetBed;
test.before(async () => {
  bed = await startWidgetBed();
});
test.after.always(() => bed?.close());

async function visit() {
  const path = `/${randomUUID()}`;
  const init = `widget('on', 'ready', () => (window.__ready = true)); widget('init', ${JSON.stringify({ operatorKey: bed.operatorKey })});`;
  bed.site.page(path, hostPage(embed.latest(bed.files, init)));
  const session = await pageWithConsole(bed.browser, {});
  await session.page.goto(bed.site.url(path));
  await openWidget(session.page);
  return session;
}

async function openWidget(page: Page) {
  await page.waitForFunction(() => (window as any).__ready === true, undefined, { timeout: serviceWaitMs });
  await page.evaluate(() => (window as any).widget('open'));
}

const saved = (page: Page): Promise<{ conversationId: string; visitorToken: string }> =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(`kb-widget:${key}`) ?? 'null'), bed.operatorKey);

/** The chat API's headers for the visitor, from the shop's site (the operator allows no other origin). */
const visitorHeaders = (keys: { visitorToken: string }) => ({
  'x-operator-key': bed.operatorKey,
  'x-visitor-token': keys.visitorToken,
  origin: new URL(bed.site.url('/')).origin,
});

/** The conversation's messages as the chat API returns them to the visitor. */
async function transcript(keys: { conversationId: string; visitorToken: string }) {
  const response = await bed.stack.api.request('GET', `/chat/conversations/${keys.conversationId}/messages`, {
    headers: visitorHeaders(keys),
  });
  return response.body.messages as { id: string; author: string; feedback?: { rating: string; reason?: string | null } }[];
}

test('a visitor rates an answer, changes their mind with a reason, and sees their rating again after a reload', async (t) => {
  const { page, close } = await visit();
  const answer = await ask(page, 'How many days do I have to return an item?', 1);
  const keys = await saved(page);
  const answerId = await answer.getAttribute('data-message-id');
  t.truthy(answerId);
  const greeting = page.locator(inWidget('[data-el=message][data-message-id=greeting]'));
  t.is(await greeting.locator('[data-el=rate]').count(), 0, 'the greeting is no answer to rate');

  await answer.locator('[data-rating=up]').click();
  await answer.locator('[data-rating=up][aria-pressed=true]').waitFor();
  // The press shows at once; the thanks only once the service has the rating.
  await answer.locator('[data-el=thanks]', { hasText: 'Thank you for your feedback.' }).waitFor();
  await eventually(
    async () => (await transcript(keys)).find((m) => m.id === answerId)?.feedback,
    (feedback) => feedback?.rating === 'up',
  );

  await answer.locator('[data-rating=down]').click();
  await answer.locator('[data-rating=down][aria-pressed=true]').waitFor();
  t.is(await answer.locator('[data-rating=up]').getAttribute('aria-pressed'), 'false');
  const reason = answer.locator('[data-el=reason] input');
  await reason.waitFor();
  await reason.fill('It does not say how long the refund takes.');
  await page.screenshot({ path: join(artifactsDir(), 'widget-feedback-reason.png') });
  await reason.press('Enter');
  await answer.locator('[data-el=reason][hidden]').waitFor({ state: 'attached' });
  const stored = await eventually(
    async () => (await transcript(keys)).find((m) => m.id === answerId)?.feedback,
    (feedback) => feedback?.reason === 'It does not say how long the refund takes.',
  );
  t.is(stored?.rating, 'down', 'the later rating replaced the first');

  await page.reload();
  await openWidget(page);
  const again = page.locator(inWidget(`[data-el=message][data-message-id="${answerId}"]`));
  await again.locator('[data-rating=down][aria-pressed=true]').waitFor({ timeout: serviceWaitMs });
  t.is(await again.locator('[data-rating=up]').getAttribute('aria-pressed'), 'false');
  await close();
});

test('after an agent closes the conversation the visitor scores it, and a second score replaces the first', async (t) => {
  const { page, close } = await visit();
  await ask(page, 'Can I return a sale item?', 1);
  const keys = await saved(page);
  const ref = bed.refOf(keys.conversationId);
  await bed.agents.takeOver(ref, { agentId: 'agent-1', name: 'Ada' });
  t.is(await page.locator(inWidget('[data-el=survey]')).count(), 0, 'no score is asked before the end');
  await bed.agents.close(ref, 'agent');

  const survey = page.locator(inWidget('[data-el=survey]'));
  await survey.waitFor({ timeout: serviceWaitMs });
  t.is(await survey.getAttribute('aria-label'), 'How was your conversation?');
  await survey.locator('button[aria-label="4 of 5"]').click();
  await survey.locator('button[aria-label="4 of 5"][aria-pressed=true]').waitFor();
  await survey.locator('button[aria-label="5 of 5"]').click();
  await survey.locator('button[aria-label="5 of 5"][aria-pressed=true]').waitFor();
  t.is(await survey.locator('[aria-pressed=true]').count(), 1);
  t.is(await survey.locator('[data-el=thanks]').textContent(), 'Thank you for your feedback.');
  await page.screenshot({ path: join(artifactsDir(), 'widget-satisfaction.png') });

  const conversation = await bed.stack.api.request('GET', `/chat/conversations/${keys.conversationId}`, {
    headers: visitorHeaders(keys),
  });
  t.is(conversation.status, 200);
  t.is(conversation.body.closedBy, 'agent');
  t.is(conversation.body.satisfaction, 5);
  await close();
});

test('a conversation that closes for being idle asks for no score', async (t) => {
  const { page, close } = await visit();
  await ask(page, 'How long does shipping take?', 1);
  const keys = await saved(page);
  await bed.agents.close(bed.refOf(keys.conversationId), 'idle');
  await page.locator(inWidget('[data-el=message][data-author=system]')).last().waitFor({ timeout: serviceWaitMs });
  await page.waitForFunction(
    () =>
      /ended/.test(document.querySelector('[data-kb-widget]')!.shadowRoot!.querySelector('[data-el=status]')!.textContent ?? ''),
    undefined,
    { timeout: serviceWaitMs },
  );
  t.is(await page.locator(inWidget('[data-el=survey]')).count(), 0);
  await close();
});
