import { join } from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { createUser } from '#testing/api.js';
import { artifactsDir, launchChromium, pageWithConsole, type LaunchedChromium, serviceWaitMs } from '#testing/browser.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { importingTenant, startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { startStaticSite, type StaticSite } from '#testing/static-site.js';
import { tearDown } from '#testing/teardown.js';

/*
 * The Sources view of the agent inbox page in Debian's Chromium against the real stack: a tenant
 * admin adds a small local website through the form (a refused address said in words first), watches
 * the real crawl finish with its counts and the page it could not read, syncs again; a crawl the
 * shrink guard refused is run again allowing deletions, and the connector removed; an admin adds a
 * files source, uploads a Markdown file through the file input and watches it read, uploads it again
 * (unchanged) and an empty one (refused), and deletes it; an agent is never offered the view.
 */

let stack: IngestionStack;
let chromium: LaunchedChromium;
let browser: Browser;
const sites: StaticSite[] = [];
/** Connectors left behind by a failed test: their Temporal schedules would outlive the stack. */
const created: Array<{ id: string; headers: Record<string, string> }> = [];
test.before(async () => {
  [stack, chromium] = await Promise.all([startIngestionStack(), launchChromium()]);
  browser = chromium.browser;
});
test.after.always(() =>
  tearDown({
    connectors: () =>
      Promise.all(created.map(({ id, headers }) => stack.api.request('DELETE', `/connectors/${id}`, { headers }))),
    sites: () => Promise.all(sites.map((site) => site.close())),
    chromium: async () => chromium?.close(),
    ...stack?.closingSteps,
  }),
);

const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

async function site(pages: Record<string, string>): Promise<StaticSite> {
  const started = await startStaticSite();
  sites.push(started);
  started.put('/robots.txt', 'User-agent: *\nDisallow: /private/\n');
  for (const [path, body] of Object.entries(pages)) started.put(path, body);
  return started;
}

async function admin() {
  const tenant = await importingTenant(stack.api);
  const user = await createUser(stack.api, tenant.tenant.id, 'admin', 'Grace');
  return { tenant, user };
}

async function openSources(page: Page, token: string) {
  await page.goto(`${stack.api.url}/agent`);
  await page.fill('#token', token);
  await page.click('#sign-in button[type=submit]');
  await page.locator('#show-sources').click({ timeout: serviceWaitMs });
}

const count = (source: ReturnType<Page['locator']>, key: string) => source.locator(`tr[data-count="${key}"] td`);

test('an admin adds a website through the form, watches its crawl finish with counts and failures, and syncs it again', async (t) => {
  const bikes = await site({
    '/index.html': html(
      'Harbour Bikes help',
      '<h2 id="hours">Opening hours</h2><p>The workshop is open from nine to six, Monday to Saturday.</p>' +
        '<p><a href="/guide.html">Fitting guide</a> <a href="/missing.html">Old prices</a> ' +
        '<a href="/manual.pdf">Manual</a> <a href="/private/notes.html">Notes</a></p>',
    ),
    '/guide.html': html(
      'Fitting guide',
      '<h2 id="saddle">Saddle height</h2><p>Set the saddle so the knee is slightly bent at the bottom of the stroke.</p>' +
        '<p><a href="/index.html">Help home</a></p>',
    ),
    '/private/notes.html': html('Notes', '<p>Not for the crawler.</p>'),
  });
  // A link to a file that says it is a PDF and is not: a page the crawl cannot read (a 404 would be "gone").
  bikes.put('/manual.pdf', 'This is plain text, not a PDF.', 'application/pdf');
  const { user } = await admin();
  const { page, close } = await pageWithConsole(browser);
  try {
    await openSources(page, user.token);
    await page.locator('.sources .muted', { hasText: 'No sources yet' }).waitFor({ timeout: serviceWaitMs });
    t.true(await page.locator('#main').isHidden(), 'the inbox gives way to the view');

    const form = page.locator('.add-website .source-form');
    await form.locator('input[name=name]').fill('Harbour Bikes help');
    await form.locator('textarea[name=startUrls]').fill(`${bikes.url}/index.html\n\nnot an address`);
    await form.locator('summary', { hasText: 'More settings' }).click();
    await form.locator('input[name=requestsPerSecond]').fill('10');
    await form.locator('button[type=submit]').click();
    const problems = form.locator('.problems');
    await problems.waitFor({ timeout: serviceWaitMs });
    t.regex(
      await problems.innerText(),
      /^The website was not added:\s+Start addresses, line 3 \(not an address\): .*must be an absolute address, such as https:\/\/example\.com\/page/,
    );
    t.is(await form.locator('textarea[name=startUrls]').getAttribute('aria-invalid'), 'true');
    t.false(/\/data\/startUrls/.test(await problems.innerText()), 'fields by their names, not their JSON pointers');
    t.is(await page.locator('.source').count(), 0, 'nothing was added');
    await page.locator('.add-website').screenshot({ path: join(artifactsDir(), 'agent-sources-refused.png') });

    await form.locator('textarea[name=startUrls]').fill(`${bikes.url}/index.html`);
    await form.locator('button[type=submit]').click();
    const source = page.locator('.source', { hasText: 'Harbour Bikes help' });
    await source.waitFor({ timeout: serviceWaitMs });
    const listed = await stack.api.request('GET', '/connectors', { headers: user.headers });
    created.push(...listed.body.connectors.map(({ id }: { id: string }) => ({ id, headers: user.headers })));
    t.true(await problems.isHidden(), 'the refusal goes once the form is accepted');
    t.is(await source.locator('.badge').first().innerText(), 'Website');
    t.regex(await source.locator('.source-meta').innerText(), new RegExp(`^${bikes.url}/index\\.html · every day$`));

    // The page reads the list again every few seconds while the crawl runs, until it has finished.
    await source.locator('.last .outcome').waitFor({ timeout: serviceWaitMs });
    await source.locator('.badge.state.idle').waitFor({ timeout: serviceWaitMs });
    t.is(await source.locator('.last .outcome').innerText(), 'succeeded');
    t.regex(await source.locator('.last .source-line').innerText(), /: \d+ sent, 0 unchanged, 0 deleted\.$/);
    t.regex(await source.locator('.next').innerText(), /^Next sync: .+\.$/);
    t.is(await source.locator('.counts caption').innerText(), 'The last crawl');
    t.is(await count(source, 'fetched').innerText(), '2', 'the two pages');
    t.is(await count(source, 'sent').innerText(), '2');
    t.is(await count(source, 'gone').innerText(), '1', 'the 404 is gone, not failed');
    t.is(await count(source, 'skippedByRobots').innerText(), '1');
    t.regex(await count(source, 'failed').innerText(), /^1 \(document_type_mismatch: 1\)$/);
    const failure = source.locator('.failures tbody tr');
    t.is(await failure.count(), 1);
    t.deepEqual((await failure.locator('td').allInnerTexts()).slice(0, 3), [
      `${bikes.url}/manual.pdf`,
      'document_type_mismatch',
      'manual.pdf is not a PDF: its bytes are plain text.',
    ]);
    await page.screenshot({ path: join(artifactsDir(), 'agent-sources.png'), fullPage: true });

    const before = bikes.requests.filter((request) => request.path === '/index.html').length;
    await source.locator('button', { hasText: 'Sync now' }).click();
    // The second crawl asks conditionally: both pages answer 304, and the counts say so once it is over.
    await count(source, 'unchanged').filter({ hasText: /^2$/ }).waitFor({ timeout: serviceWaitMs });
    await source.locator('.badge.state.idle').waitFor({ timeout: serviceWaitMs });
    t.is(await count(source, 'fetched').innerText(), '0');
    t.regex(await source.locator('.last .source-line').innerText(), /: 0 sent, \d+ unchanged, 0 deleted\.$/);
    t.true(bikes.requests.filter((request) => request.path === '/index.html').length > before);
  } finally {
    await close();
  }
});

test('a crawl the shrink guard refused is run again allowing deletions, then the connector is removed', async (t) => {
  const sections = Array.from(
    { length: 24 },
    (_, i) => `<h2 id="part-${i + 1}">Part ${i + 1}</h2><p>Part ${i + 1} of the catalogue lists frame size ${40 + i}.</p>`,
  ).join('');
  const shop = await site({
    '/index.html': html('Catalogue', '<p>Every frame we sell.</p><p><a href="/catalogue.html">Catalogue</a></p>'),
    '/catalogue.html': html('Frames', sections),
  });
  const { user } = await admin();
  const connector = await stack.api.request('POST', '/connectors/website', {
    headers: user.headers,
    body: { name: 'Frame catalogue', data: { startUrls: [`${shop.url}/index.html`], requestsPerSecond: 10 } },
  });
  t.is(connector.status, 201, JSON.stringify(connector.body));
  created.push({ id: connector.body.id, headers: user.headers });
  await eventually(
    () => stack.api.request('GET', `/connectors/${connector.body.id}`, { headers: user.headers }),
    ({ body }) => body.sync.last?.outcome === 'succeeded' && body.sync.state === 'idle',
    { timeoutMs: serviceWaitMs, intervalMs: 250 },
  );
  shop.remove('/catalogue.html');

  const { page, close } = await pageWithConsole(browser);
  try {
    await openSources(page, user.token);
    const source = page.locator('.source', { hasText: 'Frame catalogue' });
    await source.locator('button', { hasText: 'Sync now' }).click({ timeout: serviceWaitMs });
    const allow = source.locator('button', { hasText: 'Crawl and allow deletions' });
    await allow.waitFor({ timeout: serviceWaitMs });
    t.is(await source.locator('.last .outcome').innerText(), 'failed');
    const error = await source.locator('.source-error').innerText();
    t.regex(error, /^The crawl found \d+ of the \d+ items the last one kept: cleanup would delete \d+, so nothing was deleted\./);
    t.regex(error, /if it really shrank, press “Crawl and allow deletions”\.$/, 'the button, not the API flag');

    await allow.click();
    await source.locator('.last.succeeded').waitFor({ timeout: serviceWaitMs });
    await source.locator('.badge.state.idle').waitFor({ timeout: serviceWaitMs });
    const deleted = /(\d+) deleted\.$/.exec(await source.locator('.last .source-line').innerText());
    t.true(Number(deleted?.[1]) >= 20, 'the catalogue sections are gone');
    t.is(await allow.count(), 0, 'no deletions left to allow');

    await source.locator('button', { hasText: 'Remove' }).click();
    t.regex(await source.locator('.confirm').innerText(), /^Remove “Frame catalogue”\?/);
    await source.locator('button', { hasText: 'Yes, remove' }).click();
    await page.locator('.sources .muted', { hasText: 'No sources yet' }).waitFor({ timeout: serviceWaitMs });
    const left = await stack.api.request('GET', '/connectors', { headers: user.headers });
    t.deepEqual(left.body.connectors, []);
  } finally {
    await close();
  }
});

const returnsPolicy = `# Returns policy

You can return most items within **30 days** of delivery.

## How to return an item

Sign in, open *Orders* and choose **Return** next to the item.

## Items we cannot take back

Earrings and gift cards cannot be returned.
`;

test('an admin adds a files source, uploads a Markdown file and sees it read, re-uploads it unchanged, is refused an empty one, and deletes it', async (t) => {
  const { user } = await admin();
  const { page, console: messages, close } = await pageWithConsole(browser);
  try {
    await openSources(page, user.token);
    await page.locator('.sources .muted', { hasText: 'No sources yet' }).waitFor({ timeout: serviceWaitMs });
    const form = page.locator('.add-files .source-form');
    await form.locator('input[name=name]').fill('Shop policies');
    await form.locator('button[type=submit]').click();
    const source = page.locator('.source', { hasText: 'Shop policies' });
    await source.waitFor({ timeout: serviceWaitMs });
    const listed = await stack.api.request('GET', '/connectors', { headers: user.headers });
    created.push(...listed.body.connectors.map(({ id }: { id: string }) => ({ id, headers: user.headers })));
    t.is(await source.locator('.badge').first().innerText(), 'Files');
    t.regex(
      await source.locator('.source-meta').innerText(),
      /^Uploaded files · 0 files · up to \d+ MiB each, at most [\d,]+ files$/,
    );
    t.is(await source.locator('button', { hasText: 'Sync now' }).count(), 0, 'a files source has nothing to sync');
    t.is(await source.locator('.next, .last').count(), 0, 'nor a schedule or a last sync');

    const picker = source.locator('input[type=file]');
    t.true(await picker.evaluate((input: HTMLInputElement) => input.multiple));
    const markdown = { name: 'returns.md', mimeType: 'text/markdown', buffer: Buffer.from(returnsPolicy) };
    await picker.setInputFiles(markdown);
    const note = source.locator('.upload-note', { hasText: 'returns.md' });
    await note.filter({ hasText: 'added' }).waitFor({ timeout: serviceWaitMs });
    t.is(await note.innerText(), 'returns.md: added: on its way into the knowledge base');

    // The list is read again every few seconds while the file waits or is read, until it is in.
    const row = source.locator('.files tbody tr', { hasText: 'returns.md' });
    await source.locator('.files tbody tr[data-status=ingested]', { hasText: 'returns.md' }).waitFor({ timeout: serviceWaitMs });
    const [file] = (
      await stack.api.request('GET', `/connectors/${listed.body.connectors[0].id}/files`, { headers: user.headers })
    ).body.files;
    t.is(file.status, 'ingested');
    t.is(file.ingested.items, 3, 'one item per section');
    t.deepEqual((await row.locator('td').allInnerTexts()).slice(0, 4), [
      'returns.md',
      `${Buffer.byteLength(returnsPolicy)} B`,
      'In the knowledge base',
      'Markdown: 3 items',
    ]);
    t.regex(await source.locator('.source-meta').innerText(), /^Uploaded files · 1 file · /);
    await page.screenshot({ path: join(artifactsDir(), 'agent-sources-files.png'), fullPage: true });

    await picker.setInputFiles(markdown);
    await note.filter({ hasText: 'unchanged' }).waitFor({ timeout: serviceWaitMs });
    t.is(await note.innerText(), 'returns.md: unchanged: this file is already there');
    t.is(await source.locator('.files tbody tr').count(), 1);
    t.is(await row.getAttribute('data-status'), 'ingested');

    await picker.setInputFiles({ name: 'empty.md', mimeType: 'text/markdown', buffer: Buffer.alloc(0) });
    const refused = source.locator('.upload-note.refused');
    await refused.waitFor({ timeout: serviceWaitMs });
    t.is(await refused.innerText(), 'empty.md: refused: empty.md is empty: there is nothing to read in it.');
    t.is(await source.locator('.files tbody tr').count(), 1, 'nothing was added');

    await row.locator('button', { hasText: 'Delete' }).click();
    await source.locator('.muted', { hasText: 'No files yet' }).waitFor({ timeout: serviceWaitMs });
    t.is(await row.count(), 0);
    const left = await stack.api.request('GET', `/connectors/${listed.body.connectors[0].id}/files`, { headers: user.headers });
    t.deepEqual(left.body.files, []);
    // The one refusal is the browser's line about the 400; nothing else went wrong on the page.
    const errors = messages.filter((message) => message.type() === 'error').map((message) => message.text());
    t.deepEqual(
      errors.filter((text) => !/Failed to load resource.*400/.test(text)),
      [],
    );
  } finally {
    await close();
  }
});

test('an agent who opens the Sources view is told it is for admins, and offered no form', async (t) => {
  const tenant = await chattingTenant(stack.api);
  const agent = await createUser(stack.api, tenant.tenant.id, 'agent', 'Ada');
  const { page, close } = await pageWithConsole(browser);
  const asked: string[] = [];
  page.on('request', (request) => void asked.push(new URL(request.url()).pathname));
  try {
    await page.goto(`${stack.api.url}/agent`);
    await page.fill('#token', agent.token);
    await page.click('#sign-in button[type=submit]');
    await page.locator('#live.on').waitFor({ timeout: serviceWaitMs });
    t.false(asked.includes('/connectors'), 'nothing is asked before the view is opened');
    t.false(asked.includes('/agent/sources.js'), "nor is the view's module fetched");

    const refused = page.waitForResponse((response) => new URL(response.url()).pathname === '/connectors');
    await page.click('#show-sources');
    t.is((await refused).status(), 403);
    const said = page.locator('#sources .muted').first();
    await said.waitFor({ timeout: serviceWaitMs });
    t.regex(await page.locator('#sources').innerText(), /role admin/);
    t.is(await page.locator('#sources form:visible').count(), 0, 'no form to add a website or files');
    await page.click('#show-inbox');
    t.true(await page.locator('#sources').isHidden());
    t.true(await page.locator('#main').isVisible(), 'the inbox is there as ever');
  } finally {
    await close();
  }
});
