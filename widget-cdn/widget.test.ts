import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import type { Page } from 'playwright-core';
import { createConversationRecords } from '#conversations/records.js';
import { artifactsDir, serviceWaitMs } from '#testing/browser.js';
import { eventually } from '#testing/eventually.js';
import { ask, embed, hostPage, inWidget, pageWithConsole, startWidgetBed, type WidgetBed } from '#testing/widget-bed.js';

/*
 * The widget in Debian's Chromium against the real stack, embedded in a tenant's site on another
 * origin (`shop.test`) than the API and the widget files. Selectors reach into the widget's open
 * shadow root (`[data-kb-widget] [data-el=…]`).
 */

let bed: WidgetBed;
test.before(async () => {
  bed = await startWidgetBed();
});
test.after.always(() => bed?.close());

const widgetEvents = ['ready', 'open', 'close', 'message:sent', 'message:received', 'error'];

/**
 * Before any page script: records every `widget:*` DOM event with where it was dispatched (window,
 * document, the widget element), and every handler call made through `widget('on', …)` that the
 * page registers with `__handle`.
 */
const recorder = `
  window.__dom = [];
  window.__handled = [];
  window.__handlers = {};
  window.__handle = (name) => (window.__handlers[name] = (detail) => window.__handled.push({ name, detail }));
  const dispatch = EventTarget.prototype.dispatchEvent;
  EventTarget.prototype.dispatchEvent = function (event) {
    if (event.type.startsWith('widget:') && this instanceof Element && this.hasAttribute('data-kb-widget'))
      window.__dom.push({ type: event.type, on: 'element', detail: event.detail });
    return dispatch.call(this, event);
  };
  for (const name of ${JSON.stringify(widgetEvents)}) {
    window.addEventListener('widget:' + name, (event) => window.__dom.push({ type: event.type, on: 'window', detail: event.detail }));
    document.addEventListener('widget:' + name, (event) => window.__dom.push({ type: event.type, on: 'document', detail: event.detail }));
  }
`;

/** Serves `html` on the tenant's site (`host`) and opens it in a fresh browser context. */
async function visit(html: string, options: { host?: string; locale?: string; before?: string } = {}) {
  const path = `/${randomUUID()}`;
  bed.site.page(path, html);
  const session = await pageWithConsole(bed.browser, options.locale ? { locale: options.locale } : {});
  await session.page.addInitScript(recorder);
  if (options.before) await session.page.addInitScript(options.before);
  await session.page.goto(bed.site.url(path, options.host));
  return session;
}

/** The page script that starts the widget: every event handled through `on`, then `init`. */
function initScript(options: Record<string, unknown> = {}): string {
  const init = { operatorKey: bed.operatorKey, ...options };
  return `${widgetEvents.map((name) => `widget('on', ${JSON.stringify(name)}, __handle(${JSON.stringify(name)}));`).join('')}widget('init', ${JSON.stringify(init)});`;
}

async function handled(page: Page, name: string): Promise<any[]> {
  return page.evaluate(
    (wanted) => (window as any).__handled.filter((h: any) => h.name === wanted).map((h: any) => h.detail),
    name,
  );
}

async function domEvents(page: Page, type: string): Promise<string[]> {
  return page.evaluate((wanted) => (window as any).__dom.filter((e: any) => e.type === wanted).map((e: any) => e.on), type);
}

function waitForHandled(page: Page, name: string, count = 1) {
  return page.waitForFunction(
    ([wanted, n]) => (window as any).__handled.filter((h: any) => h.name === wanted).length >= (n as number),
    [name, count] as const,
    { timeout: serviceWaitMs },
  );
}

const command = (page: Page, ...args: unknown[]) => page.evaluate((a) => (window as any).widget(...a), args);

/** Where focus is: inside the widget, the `data-el` of the focused element; outside, its id. */
function focused(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (active?.hasAttribute('data-kb-widget')) return `widget:${active.shadowRoot?.activeElement?.getAttribute('data-el')}`;
    return active?.id || active?.tagName || null;
  });
}

test('every command works and every event reaches the handlers and window, document and the widget element', async (t) => {
  const { page, close } = await visit(hostPage(embed.latest(bed.files, initScript())));
  await waitForHandled(page, 'ready');
  t.like((await handled(page, 'ready'))[0], { operatorId: bed.operatorId, locale: 'en', version: bed.files.version });
  t.deepEqual((await domEvents(page, 'widget:ready')).sort(), ['document', 'element', 'window']);

  const launcher = page.locator(inWidget('[data-el=launcher]'));
  const panel = page.locator(inWidget('[data-el=panel]'));
  t.true(await launcher.isVisible());
  t.false(await panel.isVisible());

  await command(page, 'open');
  await panel.waitFor({ state: 'visible' });
  t.is(await launcher.getAttribute('aria-expanded'), 'true');
  await command(page, 'close');
  await panel.waitFor({ state: 'hidden' });
  await command(page, 'toggle');
  await panel.waitFor({ state: 'visible' });
  await command(page, 'toggle');
  await panel.waitFor({ state: 'hidden' });
  t.is((await handled(page, 'open')).length, 2);
  t.is((await handled(page, 'close')).length, 2);
  t.deepEqual((await domEvents(page, 'widget:open')).sort(), ['document', 'document', 'element', 'element', 'window', 'window']);
  t.deepEqual((await domEvents(page, 'widget:close')).sort(), ['document', 'document', 'element', 'element', 'window', 'window']);

  await command(page, 'hide');
  await launcher.waitFor({ state: 'hidden' });
  await command(page, 'show');
  await launcher.waitFor({ state: 'visible' });

  // off: the handler is no longer called; the DOM events still are.
  await page.evaluate(() => (window as any).widget('off', 'open', (window as any).__handlers.open));
  await command(page, 'open');
  await panel.waitFor({ state: 'visible' });
  t.is((await handled(page, 'open')).length, 2);
  t.is((await domEvents(page, 'widget:open')).length, 9);

  // update: the language and the element's id change without a reload.
  const englishLabel = await page.locator(inWidget('[data-el=send]')).getAttribute('aria-label');
  await command(page, 'update', { locale: 'de', panelId: 'support-chat' });
  await page.waitForFunction(() => document.getElementById('support-chat')?.hasAttribute('data-kb-widget'));
  await page.waitForFunction(
    (label) =>
      document.querySelector('[data-kb-widget]')!.shadowRoot!.querySelector('[data-el=send]')!.getAttribute('aria-label') !==
      label,
    englishLabel,
  );
  t.regex((await page.locator(inWidget('[data-el=ai-notice]')).first().textContent()) ?? '', /KI/);
  t.is((await handled(page, 'error')).length, 0);
  await close();
});

test('an answer streams in with its citations and the AI notice; message events carry both messages', async (t) => {
  const contact = { userId: 'customer-42', email: 'grace@example.com', name: 'Grace' };
  const { page, close } = await visit(hostPage(embed.latest(bed.files, initScript({ contact }))));
  await waitForHandled(page, 'ready');
  await command(page, 'open');

  // The greeting is the operator's, labelled as AI like every AI message.
  const greeting = page.locator(inWidget('[data-el=message][data-author=ai]')).first();
  await greeting.waitFor();
  t.regex((await greeting.locator('[data-el=text]').textContent()) ?? '', /Northwind/);

  const answer = await ask(page, 'How many days do I have to return an item?', 1);
  t.regex((await answer.locator('[data-el=text]').textContent()) ?? '', /30 days/);
  const citation = answer.locator('[data-el=citations] a').first();
  t.is(await citation.getAttribute('href'), 'https://shop.example/help/returns');
  t.is(await citation.getAttribute('rel'), 'noopener noreferrer nofollow');

  const notices = await page.locator(inWidget('[data-el=message][data-author=ai] [data-el=ai-notice]')).allTextContents();
  t.is(notices.length, 2, 'the greeting and the answer each carry the notice');
  for (const notice of notices) t.regex(notice, /AI/);
  t.true(await answer.locator('[data-el=ai-notice]').isVisible());

  const [sent] = await handled(page, 'message:sent');
  t.like(sent.message, { author: 'visitor', text: 'How many days do I have to return an item?' });
  await waitForHandled(page, 'message:received');
  const [received] = await handled(page, 'message:received');
  t.like(received.message, { author: 'ai', aiGenerated: true, outcome: 'answered' });
  t.is(received.message.citations[0].url, 'https://shop.example/help/returns');

  // The conversation knows who the page said the visitor is.
  const saved = await page.evaluate((key) => JSON.parse(localStorage.getItem(`kb-widget:${key}`) ?? 'null'), bed.operatorKey);
  const record = await createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix).get(
    saved.conversationId,
  );
  t.deepEqual(record?.contact, contact);

  await page.screenshot({ path: join(artifactsDir(), 'widget-answer-en.png') });
  await close();
});

test('the visitor asks for a person; the agent who takes over is shown, even while the window is closed', async (t) => {
  const { page, close } = await visit(hostPage(embed.latest(bed.files, initScript())));
  await waitForHandled(page, 'ready');
  await command(page, 'open');
  await ask(page, 'How long does standard delivery take?', 1);
  const handoff = page.locator(inWidget('[data-el=handoff]'));
  await handoff.click();
  await handoff.waitFor({ state: 'hidden' });
  const status = page.locator(inWidget('[data-el=status]'));
  await page.waitForFunction(
    () => (document.querySelector('[data-kb-widget]')!.shadowRoot!.querySelector('[data-el=status]')!.textContent ?? '') !== '',
  );
  t.regex((await status.textContent()) ?? '', /person/i);

  const saved = await page.evaluate((key) => JSON.parse(localStorage.getItem(`kb-widget:${key}`) ?? 'null'), bed.operatorKey);
  const ref = bed.refOf(saved.conversationId);
  await bed.agents.takeOver(ref, { agentId: 'agent-1', name: 'Ada' });
  await page.waitForFunction(() =>
    /Ada/.test(document.querySelector('[data-kb-widget]')!.shadowRoot!.querySelector('[data-el=status]')!.textContent ?? ''),
  );

  await command(page, 'close');
  const hostile =
    'Hi, Ada here. <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> [refund](javascript:window.__pwned=3)';
  await bed.agents.agentReply(ref, { agentId: 'agent-1', messageId: randomUUID(), text: hostile });
  await page.locator(inWidget('[data-el=unread]')).waitFor({ state: 'visible', timeout: serviceWaitMs });
  const received = (await handled(page, 'message:received')).map((detail) => detail.message);
  t.like(received.at(-1), { author: 'agent', text: hostile, agent: { name: 'Ada' } });

  await command(page, 'open');
  const agentMessage = page.locator(inWidget('[data-el=message][data-author=agent]'));
  t.is(await agentMessage.locator('[data-el=text]').textContent(), hostile, 'shown as the text it is');
  t.regex((await agentMessage.locator('[data-el=author]').textContent()) ?? '', /Ada/);
  t.is(await agentMessage.locator('[data-el=ai-notice]').count(), 0, 'a person is not labelled as AI');
  t.is(await page.locator(inWidget('img, script, a[href^="javascript"]')).count(), 0);
  t.is(await page.evaluate(() => (window as any).__pwned), undefined);
  await page.screenshot({ path: join(artifactsDir(), 'widget-agent-en.png') });
  await close();
});

test('an answer from content holding markup and a script link renders as text only', async (t) => {
  const { page, close } = await visit(hostPage(embed.latest(bed.files, initScript())));
  await waitForHandled(page, 'ready');
  await command(page, 'open');
  const answer = await ask(page, 'Can gift cards be redeemed at checkout?', 1);
  t.regex((await answer.locator('[data-el=text]').textContent()) ?? '', /[Gg]ift cards/);
  t.is(await page.locator(inWidget('img, script, iframe, a[href^="javascript"]')).count(), 0);
  for (const href of await page.locator(inWidget('a')).evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '')))
    t.regex(href, /^(https?:|mailto:)/);
  t.is(await page.evaluate(() => (window as any).__pwned), undefined);
  await close();
});

test('the browser language picks German strings, greeting, notice and answer', async (t) => {
  const { page, close } = await visit(hostPage(embed.latest(bed.files, initScript())), { locale: 'de-DE' });
  await waitForHandled(page, 'ready');
  t.is((await handled(page, 'ready'))[0].locale, 'de');
  t.regex((await page.locator(inWidget('[data-el=launcher]')).getAttribute('aria-label')) ?? '', /Chat/);
  await command(page, 'open');
  t.regex((await page.locator(inWidget('[data-el=handoff]')).textContent()) ?? '', /Mensch|Person|Mitarbeiter/i);
  const answer = await ask(page, 'Innerhalb von wie vielen Tagen kann ich Artikel zurückgeben?', 1);
  t.regex((await answer.locator('[data-el=ai-notice]').textContent()) ?? '', /KI/);
  t.regex((await answer.locator('[data-el=text]').textContent()) ?? '', /30 Tagen/);
  await page.screenshot({ path: join(artifactsDir(), 'widget-answer-de.png') });
  await close();
});

test('focus moves into the window, Escape closes it and focus returns to the launcher', async (t) => {
  const { page, close } = await visit(hostPage(embed.latest(bed.files, initScript())));
  await waitForHandled(page, 'ready');
  await page.locator(inWidget('[data-el=launcher]')).focus();
  await page.keyboard.press('Enter');
  await page.locator(inWidget('[data-el=panel]')).waitFor({ state: 'visible' });
  t.is(await focused(page), 'widget:input');
  const dialog = page.locator(inWidget('[data-el=panel]'));
  t.is(await dialog.getAttribute('role'), 'dialog');
  t.truthy(await dialog.getAttribute('aria-label'));
  t.is(await page.locator(inWidget('[data-el=log]')).getAttribute('aria-live'), 'polite');
  t.is(
    await page.locator(inWidget('[data-el=launcher]')).getAttribute('aria-controls'),
    await dialog.getAttribute('id'),
    'the launcher names the window it opens',
  );

  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  t.is(await focused(page), 'widget:launcher');
  await close();
});

test("without the launcher, the page's own button opens the window and gets the focus back; aria-controls names the widget", async (t) => {
  const body = `<button id="help" aria-controls="support-chat" onclick="widget('open')">Help</button><a id="trigger" href="#" data-widget-open>Chat with us</a>`;
  const { page, close } = await visit(
    hostPage(embed.latest(bed.files, initScript({ showLauncher: false, panelId: 'support-chat' })), body),
  );
  await waitForHandled(page, 'ready');
  t.false(await page.locator(inWidget('[data-el=launcher]')).isVisible());
  t.true(await page.evaluate(() => document.getElementById('support-chat')?.hasAttribute('data-kb-widget') ?? false));

  await page.locator('#help').click();
  await page.locator(inWidget('[data-el=panel]')).waitFor({ state: 'visible' });
  t.is(await focused(page), 'widget:input');
  await page.keyboard.press('Escape');
  await page.locator(inWidget('[data-el=panel]')).waitFor({ state: 'hidden' });
  t.is(await focused(page), 'help');

  // A trigger is the opener too, whichever way the window closes.
  await page.locator('#trigger').click();
  await page.locator(inWidget('[data-el=panel]')).waitFor({ state: 'visible' });
  await page.locator(inWidget('[data-el=close]')).click();
  await page.locator(inWidget('[data-el=panel]')).waitFor({ state: 'hidden' });
  t.is(await focused(page), 'trigger');
  t.false(page.url().endsWith('#'), 'the trigger link did not navigate');
  await close();
});

test("the host page's styles cannot break the widget", async (t) => {
  const hostileStyles = `<style>
    * { font-family: "Comic Sans MS", fantasy !important; color: red !important; font-size: 40px !important; }
    div { display: none !important; }
    button { width: 1px !important; height: 1px !important; opacity: 0 !important; }
  </style>`;
  const { page, close } = await visit(hostPage(hostileStyles + embed.latest(bed.files, initScript())));
  await waitForHandled(page, 'ready');
  const launcher = page.locator(inWidget('[data-el=launcher]'));
  await launcher.waitFor({ state: 'visible' });
  const box = await launcher.boundingBox();
  t.true(box !== null && box.width >= 40 && box.height >= 40, JSON.stringify(box));
  await launcher.click();
  const panel = page.locator(inWidget('[data-el=panel]'));
  await panel.waitFor({ state: 'visible' });
  const style = await page
    .locator(inWidget('[data-el=input]'))
    .evaluate((input) => ({ font: getComputedStyle(input).fontFamily, size: getComputedStyle(input).fontSize }));
  t.notRegex(style.font, /Comic/);
  t.not(style.size, '40px');
  await close();
});

test('origins: a subdomain of an allowed domain works; another site gets an error event and nothing rendered', async (t) => {
  const allowed = await visit(hostPage(embed.latest(bed.files, initScript())), { host: 'help.shop.test' });
  await waitForHandled(allowed.page, 'ready');
  t.is(await allowed.page.locator('[data-kb-widget]').count(), 1);
  await allowed.close();

  const elsewhere = await visit(hostPage(embed.latest(bed.files, initScript())), { host: 'elsewhere.test' });
  await waitForHandled(elsewhere.page, 'error');
  const [error] = await handled(elsewhere.page, 'error');
  t.is(error.code, 'forbidden');
  t.deepEqual((await domEvents(elsewhere.page, 'widget:error')).sort(), ['document', 'window']);
  t.regex(elsewhere.consoleText('error'), /\[widget\].*(allowed domains|rejected)/i);
  t.is(await elsewhere.page.locator('[data-kb-widget]').count(), 0);
  t.is((await handled(elsewhere.page, 'ready')).length, 0);
  await elsewhere.close();
});

test('a missing or rejected operator key is reported in the console and as an error event', async (t) => {
  for (const [options, code] of [
    [{ operatorKey: undefined }, 'missing_operator_key'],
    [{ operatorKey: 'op_thisKeyDoesNotExist' }, 'forbidden'],
  ] as const) {
    const { page, close, consoleText } = await visit(hostPage(embed.latest(bed.files, initScript(options))));
    await waitForHandled(page, 'error');
    t.is((await handled(page, 'error'))[0].code, code);
    t.regex(consoleText('error'), /\[widget\].*operator key/i);
    t.is(await page.locator('[data-kb-widget]').count(), 0);
    await close();
  }
});

test('below the supported browser versions the widget renders nothing and says why', async (t) => {
  // An engine without color-mix() (Chrome < 111, Safari < 16.2, Firefox < 113).
  const olderEngine = `{
    const supports = CSS.supports.bind(CSS);
    CSS.supports = (...args) => (args.join(' ').includes('color-mix') ? false : supports(...args));
  }`;
  const { page, close, consoleText } = await visit(hostPage(embed.latest(bed.files, initScript())), { before: olderEngine });
  await page.waitForFunction(() => typeof (window as any).widget === 'function' && !(window as any).widget.q);
  await command(page, 'open');
  t.regex(consoleText(), /\[widget\].*(111|supported)/);
  t.is(await page.locator('[data-kb-widget]').count(), 0);
  t.is((await handled(page, 'ready')).length, 0);
  await close();
});

/**
 * Before any page script: keeps the listeners the widget's code (a stack through `widget.js`) adds
 * to window and document, and the timers it starts, until they are removed or cleared.
 */
const leakTracker = `
  window.__listeners = new Map();
  window.__timers = new Set();
  const fromWidget = () => (new Error().stack ?? '').includes('/widget.js');
  const key = (target, type, listener, options) =>
    (target === window ? 'w' : 'd') + type + ((typeof options === 'boolean' ? options : options?.capture) ? 'c' : '');
  for (const target of [window, document]) {
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    target.addEventListener = (type, listener, options) => {
      if (fromWidget()) {
        const k = key(target, type, listener, options);
        const list = window.__listeners.get(k) ?? new Set();
        list.add(listener);
        window.__listeners.set(k, list);
        options?.signal?.addEventListener('abort', () => list.delete(listener));
      }
      return add(type, listener, options);
    };
    target.removeEventListener = (type, listener, options) => {
      window.__listeners.get(key(target, type, listener, options))?.delete(listener);
      return remove(type, listener, options);
    };
  }
  const [setT, clearT, setI, clearI] = [setTimeout, clearTimeout, setInterval, clearInterval];
  window.setTimeout = (fn, ms, ...args) => {
    const id = setT((...a) => { window.__timers.delete(id); typeof fn === 'function' && fn(...a); }, ms, ...args);
    if (fromWidget()) window.__timers.add(id);
    return id;
  };
  window.clearTimeout = (id) => { window.__timers.delete(id); clearT(id); };
  window.setInterval = (fn, ms, ...args) => {
    const id = setI(fn, ms, ...args);
    if (fromWidget()) window.__timers.add(id);
    return id;
  };
  window.clearInterval = (id) => { window.__timers.delete(id); clearI(id); };
`;

test('destroy leaves no element, listener, timer or open request behind, and init works again afterwards', async (t) => {
  const body = `<button id="trigger" data-widget-open>Chat</button>`;
  const { page, close } = await visit(hostPage(embed.latest(bed.files, initScript()), body), {
    before: leakTracker,
  });
  const failed: string[] = [];
  page.on('requestfailed', (request) => void failed.push(request.url()));
  await waitForHandled(page, 'ready');
  await command(page, 'open');
  const following = page.waitForRequest((request) => request.url().endsWith('/events'), { timeout: serviceWaitMs });
  await ask(page, 'How long does standard delivery take?', 1);
  await following;

  const listening = await page.evaluate(
    () => [...(window as any).__listeners.values()].filter((set: any) => set.size > 0).length,
  );
  t.true(listening > 0, 'the tracker sees the listeners of a live widget');

  await command(page, 'destroy');
  t.is(await page.locator('[data-kb-widget]').count(), 0);
  const leftovers = await page.evaluate(() => ({
    listeners: [...(window as any).__listeners.entries()].filter(([, set]: any) => set.size > 0).map(([k]: any) => k),
    timers: (window as any).__timers.size,
  }));
  t.deepEqual(leftovers, { listeners: [], timers: 0 });
  const streamAborted = await eventually(
    async () => failed.some((url) => url.endsWith('/events')),
    (done) => done,
  );
  t.true(streamAborted, 'the event stream was aborted');

  // Triggers and handlers are gone with it.
  const openEventsBefore = (await domEvents(page, 'widget:open')).length;
  await page.locator('#trigger').click();
  t.is(await page.locator('[data-kb-widget]').count(), 0);
  t.is((await domEvents(page, 'widget:open')).length, openEventsBefore);

  await command(page, 'init', { operatorKey: bed.operatorKey });
  await page.waitForFunction(() => document.querySelectorAll('[data-kb-widget]').length === 1);
  t.is((await handled(page, 'ready')).length, 1, 'handlers registered before destroy are forgotten');
  await close();
});
