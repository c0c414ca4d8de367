import { createHash, randomUUID } from 'node:crypto';
import test from 'ava';
import type { Page } from 'playwright-core';
import { embed, hostPage, pageWithConsole, startWidgetBed, type WidgetBed } from '#testing/widget-bed.js';
import { serviceWaitMs } from '#testing/browser.js';

/*
 * The deferred loader and the pinned, hash-checked embedding, in Debian's Chromium against the real
 * stack, from a tenant's site (`shop.test`) on another origin than the widget files and the API.
 */

let bed: WidgetBed;
test.before(async () => {
  bed = await startWidgetBed();
});
test.after.always(() => bed?.close());

/**
 * Before any page script: the loader states as they follow each other on the root element, the
 * widget files the page requested, and the handler calls of `widget('on', …)`.
 */
const recorder = `
  window.__states = [];
  window.__handled = [];
  // Records come in batches: each holds the value before its change, the element the one after.
  const note = (state) => state !== null && state !== window.__states.at(-1) && window.__states.push(state);
  new MutationObserver((records) => {
    for (const record of records) note(record.oldValue);
    note(document.documentElement.getAttribute('data-widget-loader'));
  }).observe(document, { attributes: true, attributeOldValue: true, subtree: true, attributeFilter: ['data-widget-loader'] });
`;

const handlers = ['ready', 'open', 'close'].map((name) => `widget('on', '${name}', () => __handled.push('${name}'));`).join('');
const init = () => `${handlers}widget('init', { operatorKey: ${JSON.stringify(bed.operatorKey)} });`;

async function visit(html: string) {
  const path = `/${randomUUID()}`;
  bed.site.page(path, html);
  const session = await pageWithConsole(bed.browser);
  const requested: string[] = [];
  session.page.on('request', (request) => void requested.push(new URL(request.url()).pathname));
  await session.page.addInitScript(recorder);
  await session.page.goto(bed.site.url(path));
  return { ...session, requested };
}

const states = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__states);
const handledNames = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__handled);
const waitForState = (page: Page, state: string) =>
  page.waitForFunction((wanted) => document.documentElement.getAttribute('data-widget-loader') === wanted, state, {
    timeout: serviceWaitMs,
  });
const panel = '[data-kb-widget] [data-el=panel]';

const triggers = `<button id="open" data-widget-open>Chat with us</button><button id="toggle" data-widget-toggle>Toggle</button><button id="close" data-widget-close>Close</button>`;

test('the loader waits for the first trigger, then loads, replays the queue in order and opens', async (t) => {
  const { page, requested, close } = await visit(hostPage(embed.loader(bed.files, init()), triggers));
  await page.waitForLoadState('networkidle');
  t.is(await page.getAttribute('html', 'data-widget-loader'), 'idle');
  t.false(
    requested.some((path) => path.endsWith('/widget.js')),
    'nothing but the loader is fetched before a visitor acts',
  );

  await page.locator('#open').click();
  await waitForState(page, 'loaded');
  await page.locator(panel).waitFor({ state: 'visible' });
  t.deepEqual(await states(page), ['idle', 'loading', 'loaded']);
  t.deepEqual(await handledNames(page), ['ready', 'open'], 'init ran before the queued open');
  t.true(requested.includes(`/${bed.files.version}/widget.js`), 'the loader fetches the widget of its own release, pinned');

  // Once loaded, every kind of trigger runs its command directly.
  await page.locator('#close').click({ force: true });
  await page.locator(panel).waitFor({ state: 'hidden' });
  await page.locator('#toggle').click();
  await page.locator(panel).waitFor({ state: 'visible' });
  await page.locator('#toggle').click({ force: true });
  await page.locator(panel).waitFor({ state: 'hidden' });
  t.deepEqual(await handledNames(page), ['ready', 'open', 'close', 'open', 'close']);
  t.is(
    requested.filter((path) => path.endsWith('/widget.js')).length,
    1,
    'the bundle is fetched once, whatever is clicked later',
  );
  await close();
});

test('commands queued before the bundle arrives run in the order given', async (t) => {
  const queued = `${init()}widget('open'); widget('close'); widget('open');`;
  const { page, close } = await visit(hostPage(embed.loader(bed.files, queued, 'data-preload="eager"')));
  await waitForState(page, 'loaded');
  await page.locator(panel).waitFor({ state: 'visible' });
  t.deepEqual(await handledNames(page), ['ready', 'open', 'close', 'open']);
  await close();
});

test('data-preload="eager" loads the bundle at once, without any interaction', async (t) => {
  const { page, close } = await visit(hostPage(embed.loader(bed.files, init(), 'data-preload="eager"')));
  await waitForState(page, 'loaded');
  await page.locator('[data-kb-widget] [data-el=launcher]').waitFor({ state: 'visible' });
  t.deepEqual(await states(page), ['idle', 'loading', 'loaded']);
  t.deepEqual(await handledNames(page), ['ready']);
  await close();
});

test('data-idle loads the bundle in the background after the given milliseconds', async (t) => {
  const { page, close } = await visit(hostPage(embed.loader(bed.files, init(), 'data-idle="1500"'), triggers));
  // Idle first: the page finished loading without the bundle.
  t.is((await states(page))[0], 'idle');
  await waitForState(page, 'loaded');
  t.deepEqual(await states(page), ['idle', 'loading', 'loaded']);
  await page.locator('[data-kb-widget] [data-el=launcher]').waitFor({ state: 'visible' });
  t.deepEqual(await handledNames(page), ['ready'], 'warming the bundle opens nothing');
  await close();
});

test('a pinned release with its published integrity loads; a wrong hash blocks it', async (t) => {
  const published = await (await fetch(`${bed.files.url}/${bed.files.version}/integrity.json`)).json();
  t.is(published['widget.js'], bed.files.integrity['widget.js']);

  const pinned = await visit(hostPage(embed.pinned(bed.files, init())));
  await pinned.page.waitForFunction(() => (window as any).__handled.includes('ready'), undefined, { timeout: serviceWaitMs });
  t.is(await pinned.page.locator('[data-kb-widget]').count(), 1);
  await pinned.close();

  const wrongHash = `sha384-${createHash('sha384').update('not the widget').digest('base64')}`;
  const tampered = await visit(hostPage(embed.pinned(bed.files, init(), wrongHash)));
  await tampered.page.waitForLoadState('networkidle');
  t.regex(tampered.consoleText('error'), /integrity/i);
  t.is(await tampered.page.locator('[data-kb-widget]').count(), 0);
  t.true(
    await tampered.page.evaluate(() => Array.isArray((window as any).widget.q)),
    'only the page stub exists: the widget never ran',
  );
  await tampered.close();
});

test('the loader hash-checks the widget it loads', async (t) => {
  const { page, close } = await visit(hostPage(embed.loader(bed.files, init(), 'data-preload="eager"')));
  await waitForState(page, 'loaded');
  const script = await page.evaluate(() => {
    const element = document.querySelector<HTMLScriptElement>('script[type=module][src$="/widget.js"]')!;
    return { integrity: element.integrity, crossOrigin: element.crossOrigin, src: element.src };
  });
  t.deepEqual(script, {
    integrity: bed.files.integrity['widget.js'],
    crossOrigin: 'anonymous',
    src: `${bed.files.url}/${bed.files.version}/widget.js`,
  });
  await close();
});
