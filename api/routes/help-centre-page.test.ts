import { join } from 'node:path';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { artifactsDir, launchChromium, pageWithConsole, type LaunchedChromium } from '#testing/browser.js';
import { createTenantWithKey } from '#testing/api.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { tearDown } from '#testing/teardown.js';

/*
 * The hosted help centre in Debian's Chromium against the real stack: a reader goes from the home
 * page to an article, the style sheet applies under the page's policy (which nothing breaks: the
 * console stays free of refusals), and the vote works without a line of script.
 */

let stack: IngestionStack;
let chromium: LaunchedChromium;
let browser: Browser;
test.before(async () => {
  [stack, chromium] = await Promise.all([startIngestionStack(), launchChromium()]);
  browser = chromium.browser;
});
test.after.always(() => tearDown({ chromium: async () => chromium?.close(), ...stack?.closingSteps }));

test('a reader finds an article from the home page, reads it styled, and votes with the plain form', async (t) => {
  const api = stack.api;
  const { tenant } = await createTenantWithKey(api, ['articles:read']);
  const kb = tenant.defaultKnowledgeBaseId as string;
  const author = async (path: string, body: Record<string, unknown>) =>
    (await api.admin('POST', `/admin/knowledge-bases/${kb}${path}`, body)).body;
  const category = await author('/categories', { name: 'Returns', description: 'Sending things back' });
  await author('/articles', {
    title: 'Returning an item',
    excerpt: 'Thirty days, unused, free of charge.',
    body: '## How to return\n\n1. Pack it **unused**.\n2. Print the label from your account.\n\n| Where | Days |\n|---|---|\n| EU | 30 |\n| UK | 28 |\n\n> Sale items can be returned too.',
    categoryId: category.id,
    status: 'PUBLISHED',
  });

  const { page, consoleText, close } = await pageWithConsole(browser);
  await page.goto(`${api.url}/help/${kb}`);
  await page.screenshot({ path: join(artifactsDir(), 'help-centre-home.png'), fullPage: true });
  await page.click('text=Returning an item');
  await page.waitForURL(/\/help\/.+\/returning-an-item$/);
  t.is(await page.locator('h1').textContent(), 'Returning an item');
  t.is(await page.locator('main').evaluate((main) => getComputedStyle(main).maxWidth), '760px', 'the style sheet applies');
  t.is(await page.locator('.body table td').first().textContent(), 'EU');
  await page.screenshot({ path: join(artifactsDir(), 'help-centre-article.png'), fullPage: true });

  await page.click('button[name=helpful][value=yes]');
  await page.locator('#feedback [role=status]', { hasText: 'Thank you for your feedback.' }).waitFor();
  t.regex(page.url(), /\?feedback=thanks#feedback$/);
  t.is(await page.locator('#feedback form').count(), 0);
  t.is(consoleText('error'), '', 'nothing the page asked for was refused');
  await close();
});
