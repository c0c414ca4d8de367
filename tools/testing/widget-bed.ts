import type { Browser, Page } from 'playwright-core';
import { createTemporalClient } from '#platform/temporal.js';
import { createConversationClient } from '#conversations/workflow-client.js';
import type { ConversationRef } from '#workflows/conversations/types.js';
import type { Locale } from '#workflows/locales.js';
import {
  launchChromium,
  pageWithConsole,
  serveHostPages,
  serveWidgetFiles,
  type HostPages,
  type WidgetFiles,
} from './browser.js';
import { chattingTenant } from './chat.js';
import { startIngestionStack, waitForJobs, type IngestionStack } from './ingestion.js';
import { shopItems } from './shop-content.js';
import { tearDown } from './teardown.js';

/**
 * Everything a widget test needs, all real: the API and a worker on the test services, the widget
 * file server over a release built from the current source, a tenant's web site on other origins
 * (`shop.test`, its subdomains, and `elsewhere.test`, which the operator does not allow) and
 * Debian's Chromium.
 */
export interface WidgetBed {
  stack: IngestionStack;
  files: WidgetFiles;
  site: HostPages;
  browser: Browser;
  /** The operator's public key; allowed on `shop.test` and `*.shop.test`. */
  operatorKey: string;
  operatorId: string;
  tenantId: string;
  knowledgeBaseId: string;
  /** Agents acting on a widget conversation through its workflow (the agent inbox's own path). */
  agents: ReturnType<typeof createConversationClient>;
  refOf(conversationId: string, locale?: Locale): ConversationRef;
  close(): Promise<void>;
}

export const shopContent = [shopItems.returns, shopItems.shipping, shopItems.germanReturns, shopItems.giftCards];

export async function startWidgetBed(): Promise<WidgetBed> {
  const stack = await startIngestionStack({
    CHAT_VISITOR_PER_MINUTE: '100000',
    CHAT_CONFIG_PER_MINUTE: '100000',
    CHAT_CONVERSATIONS_PER_HOUR: '100000',
    // Every visitor of the bed is 127.0.0.1, on one operator.
    CHAT_ADDRESS_PER_MINUTE: '100000',
    CHAT_ANSWERS_PER_ADDRESS_PER_DAY: '100000',
    CHAT_REPLY_TIMEOUT_SECONDS: '20',
  });
  const tenant = await chattingTenant(stack.api, { allowedDomains: ['shop.test', '*.shop.test'] });
  const response = await stack.api.request('POST', '/ingest/bulk', { body: { items: shopContent }, headers: tenant.headers });
  const jobs = await waitForJobs(stack.api, tenant.headers, response.body.jobIds);
  if ([...jobs.values()].some((job) => job.status !== 'searchable'))
    throw new Error('the shop content did not become searchable');

  const [files, site, chromium] = await Promise.all([serveWidgetFiles(stack.api.url), serveHostPages(), launchChromium()]);
  const temporal = createTemporalClient(stack.api.config.temporal);
  return {
    stack,
    files,
    site,
    browser: chromium.browser,
    operatorKey: tenant.operator.operatorKey,
    operatorId: tenant.operator.id,
    tenantId: tenant.tenant.id,
    knowledgeBaseId: tenant.kb,
    agents: createConversationClient(temporal.client, stack.api.config.temporal.taskQueue),
    refOf: (conversationId, locale = 'en') => ({
      conversationId,
      tenantId: tenant.tenant.id,
      operatorId: tenant.operator.id,
      knowledgeBaseId: tenant.kb,
      channel: 'widget',
      locale,
    }),
    close: () =>
      tearDown({
        chromium: chromium.close,
        'widget files': files.close,
        'host pages': site.close,
        'Temporal client': temporal.close,
        ...stack.closingSteps,
      }),
  };
}

/** The three ways a site embeds the widget (docs/widget.md). `init` is the page's own script. */
export const embed = {
  /** The newest release as an ES module, with the command queue stub before it. */
  latest: (files: WidgetFiles, init: string) =>
    `${queueStub}<script>${init}</script><script type="module" src="${files.url}/latest/widget.js"></script>`,
  /** A pinned release, hash-checked by the browser. */
  pinned: (files: WidgetFiles, init: string, integrity = files.integrity['widget.js']) =>
    `${queueStub}<script>${init}</script><script type="module" src="${files.url}/${files.version}/widget.js" integrity="${integrity}" crossorigin="anonymous"></script>`,
  /** The deferred loader, with its attributes (`data-idle="…"` or `data-preload="eager"`). */
  loader: (files: WidgetFiles, init: string, attributes = '') =>
    `${queueStub}<script>${init}</script><script src="${files.url}/latest/loader.js" ${attributes} async></script>`,
};

const queueStub = `<script>window.widget=window.widget||function(){(window.widget.q=window.widget.q||[]).push(arguments)}</script>`;

/** A host page: the embedding in the head, `body` as given. */
export function hostPage(head: string, body = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${head}</head><body><h1>Shop</h1>${body}</body></html>`;
}

export { pageWithConsole };

/** `selector` (each of a comma-separated list) inside the widget. */
export const inWidget = (selector: string) =>
  selector
    .split(',')
    .map((part) => `[data-kb-widget] ${part.trim()}`)
    .join(', ');

/** Types a question, sends it with Enter and waits until the AI answer is final. */
export async function ask(page: Page, question: string, answersBefore: number) {
  await page.locator(inWidget('[data-el=input]')).fill(question);
  await page.locator(inWidget('[data-el=input]')).press('Enter');
  const final = page.locator(inWidget('[data-el=message][data-author=ai]:not([data-streaming])'));
  await page.waitForFunction(
    ([selector, n]) =>
      document.querySelector('[data-kb-widget]')!.shadowRoot!.querySelectorAll(selector as string).length > (n as number),
    ['[data-el=message][data-author=ai]:not([data-streaming])', answersBefore] as const,
    { timeout: 30_000 },
  );
  return final.nth(answersBefore);
}
