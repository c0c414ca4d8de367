/**
 * `npm run bench:articles [-- --articles 10000 --seconds 10]`: a knowledge base of N published
 * articles (published through the admin API, which feeds each to the AI as authors' articles are,
 * and waited for until ingested, so search has its passages); then, at concurrency 32, request rate and p50/p99 latency of
 *  - a bare Koa route returning a fixed JSON body the size of a list page (the baseline, same run);
 *  - the list route without and with `search`, and one article by slug;
 *  - the hosted help centre's pages (docs/articles.md): home, search, a category, an article.
 * Goal: the list route within 3 times the bare route's p99. The article page is set against the API's
 * read by slug (the same article, as JSON), the page's extra being its rendering.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Koa from 'koa';
import pLimit from 'p-limit';
import { createArticleStore } from '#articles/store.js';
import { helpCenterIntegrationId, type Article, type Category } from '#articles/types.js';
import type { RedisClient } from '#platform/redis.js';
import { createMeasuredTenant, round, startMeasuredStack, waitUntilIngested } from './measured-stack.js';

const { values: args } = parseArgs({
  options: { articles: { type: 'string', default: '10000' }, seconds: { type: 'string', default: '10' } },
});
const articleCount = Number(args.articles);
const seconds = Number(args.seconds);

const topics = [
  'tent',
  'sleeping bag',
  'backpack',
  'jacket',
  'boots',
  'stove',
  'water filter',
  'headlamp',
  'trekking poles',
  'gloves',
];
const verbs = ['clean', 'repair', 'store', 'choose', 'return', 'wash', 'pack', 'waterproof', 'adjust', 'replace'];

const stack = await startMeasuredStack('bench-articles');
try {
  await stack.startApps();
  const tenant = await createMeasuredTenant(stack, ['articles:read', 'iq:import']);
  const store = createArticleStore(stack.redis as unknown as RedisClient, stack.prefix);
  const categories: Category[] = [];
  for (const topic of topics) categories.push(await store.createCategory(tenant.knowledgeBaseId, { name: topic }));

  console.log(`publishing ${articleCount} articles…`);
  const write = pLimit(16);
  const articles: Article[] = await Promise.all(
    Array.from({ length: articleCount }, (_, i) =>
      write(() => {
        const topic = topics[i % topics.length]!;
        const verb = verbs[Math.floor(i / topics.length) % verbs.length]!;
        return stack.admin.request<Article>('POST', `/admin/knowledge-bases/${tenant.knowledgeBaseId}/articles`, {
          title: `How to ${verb} your ${topic} (${i})`,
          excerpt: `Everything about how to ${verb} a ${topic}.`,
          body: `To ${verb} your ${topic}, start by reading the label. `.repeat(20) + `Article number ${i}.`,
          categoryId: categories[i % categories.length]!.id,
          channels: i % 3 === 0 ? ['ALL'] : ['HELP_CENTER', 'WIDGET'],
          featured: i % 50 === 0,
          status: 'PUBLISHED',
          entryPoints: [{ question: `How do I ${verb} my ${topic}?`, tags: [topic, verb] }],
        });
      }),
    ),
  );
  console.log(`waiting for the AI feed to ingest them…`);
  const failed = await waitUntilIngested(
    stack,
    tenant.tenantId,
    articles.map((article) => ({ integrationId: helpCenterIntegrationId, externalId: article.id })),
  );
  if (failed > 0) throw new Error(`${failed} articles failed to ingest`);

  const base = `/public/knowledge-bases/${tenant.knowledgeBaseId}/articles`;
  const sample = await fetch(`${stack.apiUrl}${base}?pageSize=20`, { headers: tenant.headers });
  const sampleBody = await sample.text();
  if (sample.status !== 200) throw new Error(`the list answered ${sample.status}: ${sampleBody}`);

  // The baseline: a bare Koa route answering a fixed body of the list page's size.
  const bare = new Koa();
  bare.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = sampleBody;
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((resolve) => bareServer.once('listening', resolve));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

  const cycle = (paths: string[]) => {
    let i = 0;
    return () => paths[i++ % paths.length]!;
  };
  const pages = Array.from({ length: 50 }, (_, i) => `${base}?page=${i + 1}&pageSize=20`);
  const searches = topics.flatMap((topic) =>
    verbs.map((verb) => `${base}?search=${encodeURIComponent(`${verb} ${topic}`)}&pageSize=20`),
  );
  const sampled = articles.filter((_, i) => i % 97 === 0);
  const slugs = sampled.map((article) => `${base}/by-slug/${article.slug}`);
  const help = `/help/${tenant.knowledgeBaseId}`;
  const helpArticles = sampled.map((article) => `${help}/${article.slug}`);
  const helpSearches = topics.flatMap((topic) => verbs.map((verb) => `${help}?q=${encodeURIComponent(`${verb} ${topic}`)}`));
  const helpCategories = categories.flatMap((category) =>
    [1, 2, 3].map((page) => `${help}/categories/${category.slug}?page=${page}`),
  );

  const results: Record<string, { 'requests/s': number; 'p50 ms': number; 'p99 ms': number; errors: number }> = {};
  for (const [name, url, next] of [
    ['bare Koa route (baseline)', bareUrl, cycle(['/'])],
    ['list', stack.apiUrl, cycle(pages)],
    ['list with search', stack.apiUrl, cycle(searches)],
    ['by slug', stack.apiUrl, cycle(slugs)],
    ['help centre: home', stack.apiUrl, cycle([help])],
    ['help centre: search', stack.apiUrl, cycle(helpSearches)],
    ['help centre: category page', stack.apiUrl, cycle(helpCategories)],
    ['help centre: article page', stack.apiUrl, cycle(helpArticles)],
  ] as const) {
    const result = await autocannon({
      url,
      connections: 32,
      duration: seconds,
      headers: tenant.headers,
      requests: [{ setupRequest: (request) => ({ ...request, path: next() }) }],
    });
    results[name] = {
      'requests/s': round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      errors: result.errors + result.non2xx,
    };
  }
  bareServer.close();

  const ratio = results.list!['p99 ms'] / results['bare Koa route (baseline)']!['p99 ms'];
  console.log(`\nbench:articles (${articleCount} articles, concurrency 32, ${seconds} s per route, profile ${stack.profile})`);
  console.table(results);
  console.log(`list p99 / bare p99: ${round(ratio, 2)} (goal <= 3: ${ratio <= 3 ? 'met' : 'NOT met'})`);
  const p99 = (name: string) => results[name]!['p99 ms'];
  console.log(`list with search p99 / bare p99: ${round(p99('list with search') / p99('bare Koa route (baseline)'), 2)}`);
  console.log(`help-centre article page p99 / API by slug p99: ${round(p99('help centre: article page') / p99('by slug'), 2)}`);
} finally {
  await stack.stop();
}
