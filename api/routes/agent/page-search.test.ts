import { join } from 'node:path';
import test from 'ava';
import { createUser } from '#testing/api.js';
import { artifactsDir, pageWithConsole, serviceWaitMs } from '#testing/browser.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { usePageBed } from '#testing/page-bed.js';

/*
 * The inbox page's conversation search in Chromium against the real stack: the agent searches from
 * the list's header, sees the matching conversation with its snippet (the words marked, the
 * visitor's markup shown as text), reads on with "More results", opens one, and clears the search.
 */

const bed = usePageBed(test, { CHAT_VISITOR_PER_MINUTE: '1000' });

test('an agent searches the conversations from the inbox list, reads on, opens a result and clears the search', async (t) => {
  const api = bed.stack.api;
  const tenant = await chattingTenant(api);
  const agent = await createUser(api, tenant.tenant.id as string, 'agent', 'Ada');
  const conversations: string[] = [];
  for (const text of ['<b>Refund</b> for my broken teapot, please', 'Where is my teapot refund?', 'Do you sell teapot cosies?']) {
    const visitor = await tenant.chat.start({ contact: { name: `Visitor ${conversations.length + 1}` } });
    t.is((await tenant.chat.ask(visitor, text)).status, 200);
    conversations.push(visitor.conversationId);
  }
  // The index follows the transcripts within seconds: wait until all three can be found.
  await eventually(
    () => api.request('GET', '/agent/search?q=teapot', { headers: agent.headers }),
    (response) => response.body?.results?.length === 3,
    { timeoutMs: 60_000, intervalMs: 250 },
  );

  const page = await pageWithConsole(bed.browser);
  try {
    const { page: tab } = page;
    await tab.goto(`${api.url}/agent`);
    await tab.fill('#token', agent.token as string);
    await tab.click('#sign-in button[type=submit]');
    await tab.locator('#search-text').waitFor({ timeout: serviceWaitMs });

    await tab.fill('#search-text', 'refund teapot');
    await tab.click('#search button[type=submit]');
    const results = tab.locator('#search-results li');
    await results.first().waitFor({ timeout: serviceWaitMs });
    t.is(await results.count(), 2);
    t.false(await tab.locator('#conversations').isVisible(), 'the results take the list’s place');
    const first = tab.locator(`#search-results li[data-conversation-id="${conversations[0]}"]`);
    t.regex(await first.locator('.snippet').innerText(), /<b>Refund<\/b> for my broken teapot/, 'markup shown as text');
    t.is(await first.locator('.snippet b').count(), 0, 'never parsed as HTML');
    t.deepEqual(await first.locator('.match.author-visitor mark').allInnerTexts(), ['Refund', 'teapot']);
    await tab.screenshot({ path: join(artifactsDir(), 'agent-search.png'), fullPage: true });

    // A page at a time: the page asks for 20, so narrow the pages down to see "More results" work.
    await tab.route('**/agent/search?*', (route) => {
      const url = new URL(route.request().url());
      if (!url.searchParams.has('cursor')) url.searchParams.set('limit', '2');
      return route.continue({ url: url.toString() });
    });
    await tab.fill('#search-text', 'teapot');
    await tab.click('#search button[type=submit]');
    await eventually(
      () => results.count(),
      (count) => count === 2,
    );
    await tab.click('#search-results button.secondary');
    await eventually(
      () => results.count(),
      (count) => count === 3,
    );
    t.deepEqual(
      (await results.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.conversationId))).sort(),
      [...conversations].sort(),
    );
    t.true(await tab.locator('#search-results button.secondary').isHidden(), 'no more results');

    await tab.locator(`#search-results li[data-conversation-id="${conversations[2]}"] button`).click();
    await tab.locator('#contact', { hasText: 'Visitor 3' }).waitFor({ timeout: serviceWaitMs });

    await tab.click('#search button.quiet');
    t.true(await tab.locator('#search-results').isHidden());
    t.is(await tab.inputValue('#search-text'), '');
    await tab.locator('#with-ai li').first().waitFor({ timeout: serviceWaitMs });
    t.is(page.consoleText('error'), '');
  } finally {
    await page.close();
  }
});
