import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createAdminClient, createApiClient } from '#cli/admin-client.js';
import { chatClient } from '#testing/chat.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { loadDemoContent, type DemoContent } from './demo-content.js';
import { publishDemoHelpCentre, type PublishedHelpCentre } from './demo-seed.js';
import { ensureDemoTenant, type DemoTenant } from './demo-tenant.js';

/*
 * The demo help centre as `npm start` publishes it, on the real API and worker with the answer
 * generator `npm start` runs by default (the extractive composer: no ANSWERS_PROVIDER is set) over
 * the local model. The tests run one after another: each publishes again into the same knowledge base.
 */

const content = loadDemoContent();
let stack: IngestionStack;
let dataDir: string;
let demo: DemoTenant;
let first: PublishedHelpCentre;

const clients = () => ({
  admin: createAdminClient({ baseUrl: stack.api.url, adminToken: stack.api.adminToken }),
  tenant: createApiClient({ baseUrl: stack.api.url, headers: { 'x-api-key': demo.apiKey } }),
});
const publish = (helpCentre: DemoContent = content) =>
  publishDemoHelpCentre(clients(), demo.knowledgeBaseId, helpCentre, { timeoutMs: 150_000 });
const idOf = (published: PublishedHelpCentre, slug: string) => published.articles.find((article) => article.slug === slug)!.id;

async function publicList() {
  const response = await stack.api.request('GET', `/public/knowledge-bases/${demo.knowledgeBaseId}/articles?pageSize=100`, {
    headers: { 'x-api-key': demo.apiKey },
  });
  return response.body as { total: number; articles: Array<{ id: string; slug: string; body: string }> };
}

test.before(async () => {
  stack = await startIngestionStack();
  dataDir = mkdtempSync(join(tmpdir(), 'demo-help-centre-'));
  const admin = createAdminClient({ baseUrl: stack.api.url, adminToken: stack.api.adminToken });
  demo = await ensureDemoTenant(
    { admin, asUser: (token) => createApiClient({ baseUrl: stack.api.url, headers: { authorization: `Bearer ${token}` } }) },
    dataDir,
  );
  first = await publish();
});

test.after.always(async () => {
  await stack?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test.serial('the first start publishes every article, and the AI takes each in', (t) => {
  t.deepEqual(
    first.articles.map((article) => article.outcome),
    content.articles.map(() => 'created'),
  );
  t.deepEqual(first.ingestion, { answerable: content.articles.length, pending: 0, failed: [] });
});

test.serial('publishing again duplicates nothing and changes nothing', async (t) => {
  const again = await publish();
  t.deepEqual(
    again.articles.map(({ slug, id, outcome }) => ({ slug, id, outcome })),
    first.articles.map(({ slug, id }) => ({ slug, id, outcome: 'unchanged' })),
  );
  const list = await publicList();
  t.is(list.total, content.articles.length);
  t.deepEqual(list.articles.map((article) => article.slug).sort(), content.articles.map((article) => article.slug).sort());
  const categories = await stack.api.request('GET', `/public/knowledge-bases/${demo.knowledgeBaseId}/articles/categories`, {
    headers: { 'x-api-key': demo.apiKey },
  });
  t.deepEqual(
    (categories.body as Array<{ slug: string; articleCount: number }>).map(({ slug, articleCount }) => ({ slug, articleCount })),
    content.categories.map(({ slug }) => ({ slug, articleCount: content.articles.filter((a) => a.category === slug).length })),
  );
});

test.serial('a suggested question asked through the public chat API is answered from its article, citing it', async (t) => {
  const { question, article } = content.suggestedQuestions[0]!;
  const chat = chatClient(stack.api.url, demo.operatorKey);
  const answer = await chat.ask(await chat.start(), question);
  t.like(answer.reply, { outcome: 'answered', aiGenerated: true });
  t.is(answer.reply.citations[0].externalId, idOf(first, article), JSON.stringify(answer.reply));
  t.regex(answer.reply.text, /\$8 per user per month/);
});

test.serial('each suggested question is answered, not "I don\'t know", with a citation of its article', async (t) => {
  const chat = chatClient(stack.api.url, demo.operatorKey);
  for (const { question, article } of content.suggestedQuestions) {
    const answer = await chat.ask(await chat.start(), question);
    t.is(answer.reply.outcome, 'answered', `${question}: ${answer.reply.text}`);
    t.true(
      answer.reply.citations.some((citation: { externalId: string }) => citation.externalId === idOf(first, article)),
      `${question} cites ${article}: ${JSON.stringify(answer.reply.citations)}`,
    );
  }
});

test.serial('an article whose file changed is updated in place; one unpublished meanwhile is left alone', async (t) => {
  const changed: DemoContent = {
    ...content,
    articles: content.articles.map((article) =>
      article.slug === 'refunds'
        ? { ...article, body: `${article.body}\n\nRefunds are paid in the currency you paid in.` }
        : article,
    ),
  };
  const updated = await publish(changed);
  t.deepEqual(
    updated.articles.filter((article) => article.outcome !== 'unchanged').map(({ slug, id, outcome }) => ({ slug, id, outcome })),
    [{ slug: 'refunds', id: idOf(first, 'refunds'), outcome: 'updated' }],
  );
  t.is(updated.ingestion.answerable, content.articles.length);
  const list = await publicList();
  t.is(list.total, content.articles.length);
  t.regex(list.articles.find((article) => article.slug === 'refunds')!.body, /currency you paid in/);

  // Someone unpublishes an article: the next start neither fails nor makes a second one.
  await stack.api.admin('PATCH', `/admin/knowledge-bases/${demo.knowledgeBaseId}/articles/${idOf(first, 'refunds')}`, {
    status: 'DRAFT',
  });
  const afterUnpublish = await publish(changed);
  t.deepEqual(
    afterUnpublish.articles.filter((article) => article.outcome !== 'unchanged'),
    [{ slug: 'refunds', outcome: 'held' }],
  );
  t.is((await publicList()).total, content.articles.length - 1);
});
