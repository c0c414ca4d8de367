import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import Koa from 'koa';
import { createArticleFeed } from '#articles/ai-feed.js';
import { createArticleStore } from '#articles/store.js';
import type { Article } from '#articles/types.js';
import { DependencyUnavailableError } from '#platform/dependency-errors.js';
import { createLogger } from '#platform/logger.js';
import { createRedisClient, type RedisClient } from '#platform/redis.js';
import { createTenancy } from '#tenancy/index.js';
import { testConfig } from '#testing/config.js';
import { startHttpFake, type HttpFake } from '#testing/http-fake.js';
import { assertMatchesSchema } from '#testing/schema.js';
import type { IngestItem } from '#knowledge/ingestion-client.js';
import { requireAdmin } from '#api/middleware/admin-auth.js';
import { errorHandler } from '#api/middleware/error-handler.js';
import { jsonBody } from '#api/middleware/json-body.js';
import { requestContext } from '#api/middleware/request-context.js';
import { authoredArticleResponse, categoryResponse } from '#api/schemas/articles-admin.js';
import { errorBody } from '#api/schemas/common.js';
import type { ApiState } from '#api/state.js';
import { createAdminArticlesRouter } from './admin.js';

const config = testConfig();
const prefix = config.redis.prefix;
const adminToken = `adm_${randomBytes(16).toString('base64url')}`;
const logger = createLogger({ level: 'silent', name: 'admin-articles-test' });
const articleUrl = (article: Article) => `https://help.example/${article.knowledgeBaseId}/${article.slug}`;

let redis: RedisClient;
let server: HttpFake;
let url: string;
const tenancy = () => createTenancy(redis, prefix);

/**
 * What the feed was asked and what it handed on. A title or article id in `failOnce` makes its next
 * hand-over fail as if Temporal were down.
 */
const feedLog = {
  syncs: [] as Array<{ before: Article | undefined; after: Article | undefined }>,
  accepted: [] as Array<{ tenantId: string; knowledgeBaseId: string; item: IngestItem }>,
  removed: [] as Array<{ tenantId: string; knowledgeBaseId: string; articleId: string }>,
  failOnce: new Set<string>(),
};

function failIfAsked(...keys: string[]) {
  if (keys.some((key) => feedLog.failOnce.delete(key))) {
    throw new DependencyUnavailableError('temporal', { cause: new Error('connect ECONNREFUSED') });
  }
}

test.before(async () => {
  redis = createRedisClient(config.redis.url, logger);
  await redis.connect();
  const feed = createArticleFeed({
    ingestion: {
      acceptOne: async (tenantId, knowledgeBaseId, item) => {
        failIfAsked(item.externalId, item.data.title);
        feedLog.accepted.push({ tenantId, knowledgeBaseId, item });
        return `help-center-${item.externalId}`;
      },
      remove: async ({ tenantId, externalId: articleId }, { knowledgeBaseId }) => {
        failIfAsked(articleId);
        feedLog.removed.push({ tenantId, knowledgeBaseId, articleId });
      },
    },
    articleUrl,
  });
  const router = createAdminArticlesRouter({
    tenancy: tenancy(),
    requireAdmin: requireAdmin(adminToken),
    articles: createArticleStore(redis, prefix),
    feed: {
      async syncArticle(before, after) {
        feedLog.syncs.push({ before, after });
        await feed.syncArticle(before, after);
      },
    },
  });
  const app = new Koa<ApiState>();
  app.use(requestContext(logger));
  app.use(errorHandler());
  app.use(jsonBody(1024 * 1024));
  for (const middleware of router.middleware()) app.use(middleware);
  server = await startHttpFake(app.callback());
  url = server.url;
});

test.after.always(async () => {
  await server?.close();
  if (!redis) return;
  const keys: string[] = [];
  for await (const key of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) keys.push(key);
  if (keys.length > 0) await redis.del(keys);
  await redis.quit();
});

async function admin(method: string, path: string, body?: unknown, token = adminToken) {
  const response = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A knowledge base of the test's own, in a tenant of its own. */
async function knowledgeBase() {
  const tenant = await tenancy().createTenant('Outdoor Co');
  const kb = tenant.defaultKnowledgeBaseId;
  return {
    tenant,
    kb,
    post: (path: string, body: unknown) => admin('POST', `/admin/knowledge-bases/${kb}${path}`, body),
    patch: (id: string, body: unknown) => admin('PATCH', `/admin/knowledge-bases/${kb}/articles/${id}`, body),
    remove: (id: string) => admin('DELETE', `/admin/knowledge-bases/${kb}/articles/${id}`),
  };
}

const feedFor = (articleId: string) => ({
  syncs: feedLog.syncs.filter((sync) => (sync.after ?? sync.before)?.id === articleId),
  accepted: feedLog.accepted.filter((entry) => entry.item.externalId === articleId),
  removed: feedLog.removed.filter((entry) => entry.articleId === articleId),
});

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('every route wants the admin token', async (t) => {
  const { kb } = await knowledgeBase();
  for (const [method, path] of [
    ['POST', `/admin/knowledge-bases/${kb}/categories`],
    ['POST', `/admin/knowledge-bases/${kb}/articles`],
    ['PATCH', `/admin/knowledge-bases/${kb}/articles/${randomUUID()}`],
    ['DELETE', `/admin/knowledge-bases/${kb}/articles/${randomUUID()}`],
  ] as const) {
    const response = await admin(method, path, method === 'DELETE' ? undefined : { name: 'x' }, 'wrong');
    t.is(response.status, 401, `${method} ${path}`);
    t.is(response.body.error.code, 'unauthorized');
  }
});

test('POST categories: derived and explicit slugs, 409 for a taken one, 400 naming an unknown parentId, 404 for an unknown knowledge base', async (t) => {
  const { post } = await knowledgeBase();
  const created = await post('/categories', { name: 'Tents & Shelters', description: 'Everything to sleep in', icon: 'tent' });
  t.is(created.status, 201);
  assertMatchesSchema(t, categoryResponse, created.body);
  t.deepEqual(Object.keys(created.body).sort(), ['description', 'icon', 'id', 'name', 'parentId', 'slug']);
  t.like(created.body, {
    name: 'Tents & Shelters',
    slug: 'tents-shelters',
    parentId: null,
    description: 'Everything to sleep in',
    icon: 'tent',
  });
  t.regex(created.body.id, uuid);

  const child = await post('/categories', { name: 'Tents & Shelters', parentId: created.body.id });
  t.is(child.status, 201);
  t.like(child.body, { slug: 'tents-shelters-2', parentId: created.body.id, description: null, icon: null });

  const taken = await post('/categories', { name: 'Other', slug: 'tents-shelters' });
  t.is(taken.status, 409);
  assertMatchesSchema(t, errorBody, taken.body);
  t.is(taken.body.error.code, 'conflict');
  t.regex(taken.body.error.message, /tents-shelters/);

  const foreign = await (await knowledgeBase()).post('/categories', { name: 'Elsewhere' });
  for (const parentId of [randomUUID(), foreign.body.id]) {
    const orphan = await post('/categories', { name: 'Child', parentId });
    t.is(orphan.status, 400);
    t.is(orphan.body.error.code, 'invalid_payload');
    t.deepEqual(orphan.body.error.details, [{ path: '/parentId', message: 'is not a category of this knowledge base' }]);
  }

  const invalid = await post('/categories', { slug: 'Not A Slug', icon: 5, extra: true });
  t.is(invalid.status, 400);
  t.is(invalid.body.error.code, 'invalid_payload');
  const paths = new Set(invalid.body.error.details.map((detail: { path: string }) => detail.path));
  t.deepEqual([...paths].sort(), ['/extra', '/icon', '/name', '/slug']);

  const missing = await admin('POST', `/admin/knowledge-bases/${randomUUID()}/categories`, { name: 'x' });
  t.is(missing.status, 404);
  t.is(missing.body.error.code, 'not_found');
});

test('POST articles: defaults, derived fields, the authored shape; a draft is not fed', async (t) => {
  const { post } = await knowledgeBase();
  const created = await post('/articles', {
    title: 'How to pitch a tent',
    body: `<p>${'word '.repeat(250)}</p>`,
    entryPoints: [
      { question: 'How do I pitch my tent?', tags: ['tent'] },
      { question: 'Where?', snippet: 'Flat ground', isPrimary: true },
    ],
  });
  t.is(created.status, 201);
  assertMatchesSchema(t, authoredArticleResponse, created.body);
  t.deepEqual(Object.keys(created.body).sort(), [
    'body',
    'categoryId',
    'channels',
    'createdAt',
    'entryPoints',
    'excerpt',
    'featured',
    'id',
    'imageUrl',
    'publishedAt',
    'readingTimeMinutes',
    'slug',
    'status',
    'title',
    'updatedAt',
    'visibility',
  ]);
  t.like(created.body, {
    slug: 'how-to-pitch-a-tent',
    excerpt: '',
    imageUrl: null,
    categoryId: null,
    channels: ['ALL'],
    featured: false,
    status: 'DRAFT',
    visibility: 'PUBLIC',
    readingTimeMinutes: 2,
    publishedAt: null,
  });
  t.regex(created.body.createdAt, iso);
  t.is(created.body.updatedAt, created.body.createdAt);
  t.is(created.body.entryPoints.length, 2);
  for (const entryPoint of created.body.entryPoints) t.regex(entryPoint.id, uuid);
  t.like(created.body.entryPoints[0], { question: 'How do I pitch my tent?', snippet: '', isPrimary: false, tags: ['tent'] });
  t.like(created.body.entryPoints[1], { question: 'Where?', snippet: 'Flat ground', isPrimary: true, tags: [] });

  const feed = feedFor(created.body.id);
  t.is(feed.syncs.length, 1);
  t.is(feed.syncs[0]!.before, undefined);
  t.is(feed.syncs[0]!.after?.status, 'DRAFT');
  t.deepEqual([feed.accepted, feed.removed], [[], []]);

  t.is((await post('/articles', { title: 'How to pitch a tent', body: 'Again' })).body.slug, 'how-to-pitch-a-tent-2');
});

test('POST articles: a published public article is fed to its knowledge base as an ARTICLE source', async (t) => {
  const { post, kb, tenant } = await knowledgeBase();
  const category = await post('/categories', { name: 'Tents' });
  const created = await post('/articles', {
    title: 'Tent care',
    body: 'Dry it before storing.',
    slug: 'tent-care',
    excerpt: 'Keep your tent for years.',
    imageUrl: 'https://img.example/tent.png',
    categoryId: category.body.id,
    channels: ['HELP_CENTER', 'WIDGET'],
    featured: true,
    status: 'PUBLISHED',
    visibility: 'PUBLIC',
  });
  t.is(created.status, 201);
  t.like(created.body, { slug: 'tent-care', status: 'PUBLISHED', categoryId: category.body.id, featured: true });
  t.regex(created.body.publishedAt, iso);
  t.is(created.body.publishedAt, created.body.createdAt);

  const { accepted, removed } = feedFor(created.body.id);
  t.deepEqual(removed, []);
  t.deepEqual(accepted, [
    {
      tenantId: tenant.id,
      knowledgeBaseId: kb,
      item: {
        integrationId: 'help-center',
        sourceType: 'ARTICLE',
        externalId: created.body.id,
        sourceOrigin: 'help-center',
        data: {
          title: 'Tent care',
          content: 'Keep your tent for years.\n\nDry it before storing.',
          url: `https://help.example/${kb}/tent-care`,
          metadata: { slug: 'tent-care', categoryId: category.body.id, channels: ['HELP_CENTER', 'WIDGET'], featured: true },
          sourceData: {
            excerpt: 'Keep your tent for years.',
            readingTimeMinutes: 1,
            publishedAt: created.body.publishedAt,
            updatedAt: created.body.updatedAt,
          },
        },
      },
    },
  ]);

  const internal = await post('/articles', { title: 'Internal', body: 'x', status: 'PUBLISHED', visibility: 'INTERNAL' });
  t.deepEqual([feedFor(internal.body.id).accepted, feedFor(internal.body.id).removed], [[], []]);
});

test('POST articles: 409 for a taken slug, 400 naming an unknown categoryId, 400 with details for invalid fields, 404 for an unknown knowledge base', async (t) => {
  const { post } = await knowledgeBase();
  await post('/articles', { title: 'Returns', body: 'x', slug: 'returns' });
  const taken = await post('/articles', { title: 'Other', body: 'y', slug: 'returns' });
  t.is(taken.status, 409);
  t.is(taken.body.error.code, 'conflict');

  const foreign = await (await knowledgeBase()).post('/categories', { name: 'Elsewhere' });
  for (const categoryId of [randomUUID(), foreign.body.id]) {
    const unknown = await post('/articles', { title: 'x', body: 'y', categoryId });
    t.is(unknown.status, 400);
    t.deepEqual(unknown.body.error.details, [{ path: '/categoryId', message: 'is not a category of this knowledge base' }]);
  }

  const invalid = await post('/articles', {
    slug: 'Bad Slug',
    channels: ['EMAIL'],
    status: 'LIVE',
    visibility: 'SECRET',
    featured: 'yes',
    imageUrl: 'ftp://x',
    categoryId: 'not-a-uuid',
    entryPoints: [{ snippet: 'no question' }],
    author: 'me',
  });
  t.is(invalid.status, 400);
  assertMatchesSchema(t, errorBody, invalid.body);
  const paths = new Set(invalid.body.error.details.map((detail: { path: string }) => detail.path));
  for (const path of [
    '/title',
    '/body',
    '/slug',
    '/channels/0',
    '/status',
    '/visibility',
    '/featured',
    '/imageUrl',
    '/categoryId',
    '/entryPoints/0/question',
    '/author',
  ]) {
    t.true(paths.has(path), `a detail for ${path}`);
  }
  t.is((await post('/articles', { title: '', body: 'x' })).status, 400);
  t.is((await post('/articles', { title: 'x', body: 'y', channels: [] })).status, 400);
  t.is((await post('/articles', { title: 'x', body: 'y', channels: ['WIDGET', 'WIDGET'] })).status, 400);
  // A lone surrogate (half a character) in any authored text is refused by name, never a 500 (found by `npm run fuzz`).
  const halfName = await post('/categories', { name: 'Returns\ud800' });
  t.is(halfName.status, 400);
  t.deepEqual(halfName.body.error.details, [{ path: '/name', message: 'must be well-formed Unicode text (no lone surrogate)' }]);
  const halves = await post('/articles', { title: 'x\ud800', body: '\udc00', excerpt: '\ud800', entryPoints: [{ question: 'q\ud800', tags: ['\ud800'] }] });
  t.is(halves.status, 400);
  t.deepEqual(
    halves.body.error.details.map((detail: { path: string }) => detail.path).sort(),
    ['/body', '/entryPoints/0/question', '/entryPoints/0/tags/0', '/excerpt', '/title'],
  );

  const missing = await admin('POST', `/admin/knowledge-bases/${randomUUID()}/articles`, { title: 'x', body: 'y' });
  t.is(missing.status, 404);
});

test('POST articles: when the article cannot be fed, the answer is 503 and the article is not kept', async (t) => {
  const { post } = await knowledgeBase();
  feedLog.failOnce.add('Flaky');
  const failed = await post('/articles', { title: 'Flaky', body: 'x', slug: 'flaky', status: 'PUBLISHED' });
  t.is(failed.status, 503);
  t.is(failed.body.error.code, 'unavailable');
  const again = await post('/articles', { title: 'Flaky', body: 'x', slug: 'flaky', status: 'PUBLISHED' });
  t.is(again.status, 201);
  t.is(feedFor(again.body.id).accepted.length, 1);
});

test('PATCH: publishing sets publishedAt once; the feed ingests every public version and removes on unpublish, archive, internal', async (t) => {
  const { post, patch, kb, tenant } = await knowledgeBase();
  const draft = (await post('/articles', { title: 'Boot sizes', body: 'Measure your feet.', entryPoints: [{ question: 'Q?' }] }))
    .body;
  const id = draft.id as string;

  const edited = await patch(id, { excerpt: 'Find your size.' });
  t.is(edited.status, 200);
  assertMatchesSchema(t, authoredArticleResponse, edited.body);
  t.like(edited.body, { excerpt: 'Find your size.', title: 'Boot sizes', status: 'DRAFT', publishedAt: null });
  t.deepEqual(edited.body.entryPoints, draft.entryPoints);
  t.true(edited.body.updatedAt >= draft.updatedAt);
  t.deepEqual(feedFor(id).accepted, []);

  const live = await patch(id, { status: 'PUBLISHED' });
  t.regex(live.body.publishedAt, iso);
  const publishedAt = live.body.publishedAt;
  t.is(feedFor(id).accepted.length, 1);
  t.is(feedFor(id).syncs.at(-1)!.before?.status, 'DRAFT');
  t.is(feedFor(id).syncs.at(-1)!.after?.status, 'PUBLISHED');

  const retitled = await patch(id, { title: 'Boot sizing', featured: true });
  t.is(retitled.body.slug, 'boot-sizes', 'the slug stays when the title changes');
  t.is(feedFor(id).accepted.length, 2);
  t.like(feedFor(id).accepted.at(-1)!.item.data, { title: 'Boot sizing', content: 'Find your size.\n\nMeasure your feet.' });
  t.is((feedFor(id).accepted.at(-1)!.item.data.metadata as { featured: boolean }).featured, true);

  const steps: Array<[Record<string, unknown>, 'accept' | 'remove' | 'none']> = [
    [{ status: 'DRAFT' }, 'remove'],
    // Once published, every save of a non-public version removes again: a repeated request repairs a failed removal.
    [{ title: 'Still a draft' }, 'remove'],
    [{ status: 'PUBLISHED' }, 'accept'],
    [{ status: 'ARCHIVED' }, 'remove'],
    [{ status: 'PUBLISHED' }, 'accept'],
    [{ visibility: 'INTERNAL' }, 'remove'],
    [{ status: 'ARCHIVED', visibility: 'PUBLIC' }, 'remove'],
    [{ status: 'PUBLISHED', entryPoints: [{ question: 'New?' }] }, 'accept'],
  ];
  for (const [changes, expected] of steps) {
    const [accepted, removed] = [feedFor(id).accepted.length, feedFor(id).removed.length];
    const response = await patch(id, changes);
    t.is(response.status, 200, JSON.stringify(changes));
    t.is(response.body.publishedAt, publishedAt, `publishedAt kept after ${JSON.stringify(changes)}`);
    t.is(feedFor(id).accepted.length - accepted, expected === 'accept' ? 1 : 0, `${JSON.stringify(changes)} accepts`);
    t.is(feedFor(id).removed.length - removed, expected === 'remove' ? 1 : 0, `${JSON.stringify(changes)} removes`);
  }
  t.true(feedFor(id).removed.every((entry) => entry.knowledgeBaseId === kb && entry.tenantId === tenant.id));
  const final = feedFor(id).syncs.at(-1)!;
  t.is(final.after?.entryPoints[0]?.question, 'New?');
  t.not(final.after?.entryPoints[0]?.id, draft.entryPoints[0].id);
});

test('PATCH: 404 for an unknown article, one of another knowledge base or an unknown knowledge base; 409, 400 as for POST', async (t) => {
  const first = await knowledgeBase();
  const second = await knowledgeBase();
  const mine = (await first.post('/articles', { title: 'Mine', body: 'x' })).body;
  const theirs = (await second.post('/articles', { title: 'Theirs', body: 'y', slug: 'theirs' })).body;
  await first.post('/articles', { title: 'Taken', body: 'z', slug: 'taken' });

  t.is((await first.patch(randomUUID(), { title: 'x' })).status, 404);
  t.is((await first.patch(theirs.id, { title: 'x' })).status, 404);
  t.is((await admin('PATCH', `/admin/knowledge-bases/${randomUUID()}/articles/${mine.id}`, { title: 'x' })).status, 404);

  const taken = await first.patch(mine.id, { slug: 'taken' });
  t.is(taken.status, 409);
  t.is((await first.patch(mine.id, { slug: 'theirs' })).body.slug, 'theirs', 'slugs are per knowledge base');

  const unknown = await first.patch(mine.id, { categoryId: randomUUID() });
  t.is(unknown.status, 400);
  t.deepEqual(unknown.body.error.details, [{ path: '/categoryId', message: 'is not a category of this knowledge base' }]);

  const empty = await first.patch(mine.id, {});
  t.is(empty.status, 400);
  t.is(empty.body.error.code, 'invalid_payload');
  const invalid = await first.patch(mine.id, { title: '', tenantId: 'x', status: 'GONE' });
  t.is(invalid.status, 400);
  t.deepEqual(invalid.body.error.details.map((detail: { path: string }) => detail.path).sort(), [
    '/status',
    '/tenantId',
    '/title',
  ]);

  const category = (await first.post('/categories', { name: 'Boots' })).body;
  t.is((await first.patch(mine.id, { categoryId: category.id })).body.categoryId, category.id);
  const cleared = await first.patch(mine.id, { categoryId: null, imageUrl: null });
  t.like(cleared.body, { categoryId: null, imageUrl: null });
});

test('DELETE: 204; a published article is removed from the knowledge base first; 404 afterwards', async (t) => {
  const { post, remove, kb, tenant } = await knowledgeBase();
  const live = (await post('/articles', { title: 'Gone soon', body: 'x', status: 'PUBLISHED' })).body;
  const draft = (await post('/articles', { title: 'Draft', body: 'x' })).body;

  const deleted = await remove(live.id);
  t.is(deleted.status, 204);
  t.is(deleted.body, undefined);
  t.deepEqual(feedFor(live.id).removed, [{ tenantId: tenant.id, knowledgeBaseId: kb, articleId: live.id }]);
  t.is(feedFor(live.id).syncs.at(-1)!.after, undefined);
  t.is((await remove(live.id)).status, 404);
  t.is((await post('/articles', { title: 'Gone soon', body: 'again' })).body.slug, 'gone-soon', 'the slug is free again');

  t.is((await remove(draft.id)).status, 204);
  t.deepEqual(feedFor(draft.id).removed, []);

  const stillLive = (await post('/articles', { title: 'Kept', body: 'x', status: 'PUBLISHED' })).body;
  feedLog.failOnce.add(stillLive.id);
  t.is((await remove(stillLive.id)).status, 503);
  t.is((await remove(stillLive.id)).status, 204, 'a failed delete can be repeated');
  t.is(feedFor(stillLive.id).removed.length, 1);

  t.is((await admin('DELETE', `/admin/knowledge-bases/${randomUUID()}/articles/${draft.id}`)).status, 404);
});
