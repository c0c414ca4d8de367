import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createLogger } from '#platform/logger.js';
import { createRedisClient, type RedisClient } from '#platform/redis.js';
import { testConfig } from '#testing/config.js';
import { createArticleStore, readingTime, slugify, SlugTakenError, UnknownArticleError, UnknownCategoryError } from './store.js';
import { articleStatuses, articleVisibilities, type Article, type ArticleInput, type Category } from './types.js';

const config = testConfig();
const prefix = config.redis.prefix;
let redis: RedisClient;

test.before(async () => {
  redis = createRedisClient(config.redis.url, createLogger({ level: 'silent', name: 'articles-store-test' }));
  await redis.connect();
});

test.after.always(async () => {
  if (!redis) return;
  const keys: string[] = [];
  for await (const key of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) keys.push(key);
  if (keys.length > 0) await redis.del(keys);
  await redis.quit();
});

/** A store with a clock the test moves, and a knowledge base of the test's own. */
function setup() {
  let time = Date.parse('2026-01-01T00:00:00.000Z');
  const store = createArticleStore(redis, prefix, () => new Date(time));
  const kb = randomUUID();
  const tenant = randomUUID();
  return {
    store,
    kb,
    tenant,
    tick: (ms = 1_000) => (time += ms),
    at: () => new Date(time).toISOString(),
    article: (input: Partial<ArticleInput> = {}) =>
      store.createArticle(tenant, kb, { title: 'How to pitch a tent', body: 'Find flat ground.', ...input }),
  };
}

const published = { status: 'PUBLISHED', visibility: 'PUBLIC' } as const;

test('slugify folds diacritics and joins words with single hyphens', (t) => {
  t.is(slugify('Crème Brûlée & Straße: Œuvres!'), 'creme-brulee-strasse-oeuvres');
  t.is(slugify('  --Hello,   World--  '), 'hello-world');
  t.is(slugify('Æble på Ø 2'), 'aeble-pa-o-2');
  t.is(slugify('你好'), '');
  t.is(slugify('a'.repeat(100)).length, 80);
});

test('reading time is a ceiling of words / 200, at least 1, not counting markup', (t) => {
  t.is(readingTime(''), 1);
  t.is(readingTime('one'), 1);
  t.is(readingTime('word '.repeat(200)), 1);
  t.is(readingTime('word '.repeat(201)), 2);
  t.is(readingTime(`<div class="x"><p>${'word '.repeat(200)}</p><img src="a.png"></div>`), 1);
  t.is(readingTime(`# Title\n\n- ${'word '.repeat(399)}\n\n---`), 2);
});

test('an article gets the defaults, derived fields and entry-point ids', async (t) => {
  const { store, kb, tenant, at } = setup();
  const article = await store.createArticle(tenant, kb, {
    title: 'Café Crème Guide',
    body: '<p>Hello <b>world</b></p>',
    entryPoints: [
      { question: 'How do I make café crème?' },
      { question: 'Milk?', snippet: 's', isPrimary: true, tags: ['milk'] },
    ],
  });
  t.like(article, {
    tenantId: tenant,
    knowledgeBaseId: kb,
    slug: 'cafe-creme-guide',
    body: '<p>Hello <b>world</b></p>',
    excerpt: '',
    imageUrl: null,
    categoryId: null,
    channels: ['ALL'],
    featured: false,
    status: 'DRAFT',
    visibility: 'PUBLIC',
    readingTimeMinutes: 1,
    publishedAt: null,
    createdAt: at(),
    updatedAt: at(),
  });
  t.is(article.entryPoints.length, 2);
  t.like(article.entryPoints[0], { question: 'How do I make café crème?', snippet: '', isPrimary: false, tags: [] });
  t.like(article.entryPoints[1], { question: 'Milk?', snippet: 's', isPrimary: true, tags: ['milk'] });
  t.not(article.entryPoints[0]!.id, article.entryPoints[1]!.id);
  t.deepEqual(await store.getArticle(article.id), article);
  t.deepEqual(await store.findArticleBySlug(kb, 'cafe-creme-guide'), article);
  t.is(await store.findArticleBySlug(randomUUID(), 'cafe-creme-guide'), undefined);
  t.is(await store.getArticle(randomUUID()), undefined);
});

test('derived slugs get -2, -3…; an explicit taken slug is refused; slugs are per knowledge base', async (t) => {
  const { store, tenant, article } = setup();
  const slugs = [];
  for (let i = 0; i < 3; i++) slugs.push((await article({ title: 'Returns & Refunds' })).slug);
  t.deepEqual(slugs, ['returns-refunds', 'returns-refunds-2', 'returns-refunds-3']);

  const error = await t.throwsAsync(article({ title: 'Other', slug: 'returns-refunds-2' }), { instanceOf: SlugTakenError });
  t.is(error?.slug, 'returns-refunds-2');
  t.is((await store.createArticle(tenant, randomUUID(), { title: 'Returns & Refunds', body: 'x' })).slug, 'returns-refunds');
  t.is((await article({ title: '¿¿??' })).slug, 'article');

  const many = await Promise.all(Array.from({ length: 20 }, () => article({ title: 'Same title' })));
  t.is(new Set(many.map((a) => a.slug)).size, 20);
});

test('the slug changes only when sent; the old one is freed; a taken one is refused', async (t) => {
  const { store, kb, article } = setup();
  const first = await article({ title: 'First' });
  const second = await article({ title: 'Second' });

  const renamed = await store.updateArticle(first, { title: 'A new title' });
  t.is(renamed.slug, 'first');
  await t.throwsAsync(store.updateArticle(second, { slug: 'first' }), { instanceOf: SlugTakenError });
  t.is((await store.updateArticle(first, { slug: 'first' })).slug, 'first');

  const moved = await store.updateArticle(first, { slug: 'moved' });
  t.is(moved.slug, 'moved');
  t.is((await store.findArticleBySlug(kb, 'moved'))?.id, first.id);
  t.is(await store.findArticleBySlug(kb, 'first'), undefined);
  t.is((await store.updateArticle(second, { slug: 'first' })).slug, 'first');

  await store.deleteArticle(moved);
  t.is((await article({ slug: 'moved' })).slug, 'moved');
});

test('publishedAt is set on the first publication and kept; updatedAt on every change', async (t) => {
  const { store, article, tick, at } = setup();
  const draft = await article();
  t.is(draft.publishedAt, null);

  tick();
  const edited = await store.updateArticle(draft, { title: 'Edited' });
  t.is(edited.publishedAt, null);
  t.is(edited.updatedAt, at());
  t.is(edited.createdAt, draft.createdAt);

  tick();
  const publishedAt = at();
  const live = await store.updateArticle(edited, { status: 'PUBLISHED' });
  t.is(live.publishedAt, publishedAt);

  tick();
  const archived = await store.updateArticle(live, { status: 'ARCHIVED' });
  t.is(archived.publishedAt, publishedAt);
  t.is(archived.updatedAt, at());

  tick();
  const back = await store.updateArticle(archived, { status: 'PUBLISHED' });
  t.is(back.publishedAt, publishedAt);
  t.is(back.updatedAt, at());

  const bornPublished = await article({ status: 'PUBLISHED' });
  t.is(bornPublished.publishedAt, at());
});

test('updates keep unsent fields, clear nullable ones with null, and replace entry points with new ids', async (t) => {
  const { store, kb, article } = setup();
  const category = await store.createCategory(kb, { name: 'Tents' });
  const original = await article({
    excerpt: 'Short',
    imageUrl: 'https://img.example/tent.png',
    categoryId: category.id,
    channels: ['WIDGET'],
    entryPoints: [{ question: 'Q1?' }],
  });
  const kept = await store.updateArticle(original, { body: 'word '.repeat(401) });
  t.like(kept, { excerpt: 'Short', imageUrl: 'https://img.example/tent.png', categoryId: category.id, channels: ['WIDGET'] });
  t.is(kept.readingTimeMinutes, 3);
  t.deepEqual(kept.entryPoints, original.entryPoints);

  const cleared = await store.updateArticle(kept, { imageUrl: null, categoryId: null, entryPoints: [{ question: 'Q2?' }] });
  t.is(cleared.imageUrl, null);
  t.is(cleared.categoryId, null);
  t.is(cleared.entryPoints.length, 1);
  t.is(cleared.entryPoints[0]!.question, 'Q2?');
  t.not(cleared.entryPoints[0]!.id, original.entryPoints[0]!.id);
  t.is(await store.findEntryPoint(original.entryPoints[0]!.id), undefined);
  t.deepEqual(await store.findEntryPoint(cleared.entryPoints[0]!.id), {
    entryPoint: cleared.entryPoints[0]!,
    articleId: original.id,
    knowledgeBaseId: kb,
  });
  t.deepEqual(await store.getArticle(original.id), cleared);
});

test('categories: derived and suffixed slugs, explicit taken slug, parents of the same knowledge base, creation order', async (t) => {
  const { store, kb, tick, at, article } = setup();
  const gear = await store.createCategory(kb, { name: 'Gear & Équipement', description: 'All gear', icon: 'tent' });
  t.like(gear, {
    knowledgeBaseId: kb,
    name: 'Gear & Équipement',
    slug: 'gear-equipement',
    parentId: null,
    description: 'All gear',
  });
  t.is(gear.icon, 'tent');
  t.is(gear.createdAt, at());
  tick();
  const again = await store.createCategory(kb, { name: 'Gear / Équipement', parentId: gear.id });
  t.like(again, { slug: 'gear-equipement-2', parentId: gear.id, description: null, icon: null });
  const explicit = await store.createCategory(kb, { name: 'Misc', slug: 'misc', description: '' });
  t.is(explicit.description, '');
  await t.throwsAsync(store.createCategory(kb, { name: 'Other', slug: 'misc' }), { instanceOf: SlugTakenError });

  const unknown = await t.throwsAsync(store.createCategory(kb, { name: 'Child', parentId: randomUUID() }), {
    instanceOf: UnknownCategoryError,
  });
  t.is(unknown?.field, 'parentId');
  const foreign = await setup().store.createCategory(randomUUID(), { name: 'Elsewhere' });
  await t.throwsAsync(store.createCategory(kb, { name: 'Child', parentId: foreign.id }), { instanceOf: UnknownCategoryError });
  const wrongArticleCategory = await t.throwsAsync(article({ categoryId: foreign.id }), { instanceOf: UnknownCategoryError });
  t.is(wrongArticleCategory?.field, 'categoryId');
  const draft = await article();
  await t.throwsAsync(store.updateArticle(draft, { categoryId: foreign.id }), { instanceOf: UnknownCategoryError });

  t.deepEqual(
    (await store.listCategories(kb)).map((category) => category.slug),
    ['gear-equipement', 'gear-equipement-2', 'misc'],
  );
  t.deepEqual(await store.findCategoryBySlug(kb, 'gear-equipement-2'), again);
  t.deepEqual(await store.getCategory(gear.id), gear);
  t.is(await store.findCategoryBySlug(kb, 'nope'), undefined);
  t.deepEqual(await store.listCategories(randomUUID()), []);
});

test('only PUBLISHED and PUBLIC articles are in the public indexes, through every change', async (t) => {
  const { store, kb, article } = setup();
  const category = await store.createCategory(kb, { name: 'Tents' });
  const fields = { categoryId: category.id, featured: true, channels: ['WIDGET'] as const, entryPoints: [{ question: 'Q?' }] };
  const combos = [];
  for (const status of articleStatuses) {
    for (const visibility of articleVisibilities) {
      combos.push({
        status,
        visibility,
        article: await article({ ...fields, channels: [...fields.channels], status, visibility }),
      });
    }
  }
  const expected = combos.filter((c) => c.status === 'PUBLISHED' && c.visibility === 'PUBLIC').map((c) => c.article.id);
  t.is(expected.length, 1);
  const ids = combos.map((c) => c.article.id);

  const check = async (publicIds: string[], message: string) => {
    const filters = [
      {},
      { channel: 'WIDGET' },
      { categoryId: category.id },
      { featured: true },
      { channel: 'WIDGET', featured: true },
      { channel: 'ALL', categoryId: category.id },
    ];
    for (const filter of filters) {
      const page = await store.listPublic(kb, filter, { offset: 0, limit: 50 });
      t.deepEqual([...page.ids].sort(), [...publicIds].sort(), `${message}: list ${JSON.stringify(filter)}`);
      t.is(page.total, publicIds.length, `${message}: total ${JSON.stringify(filter)}`);
      t.deepEqual(
        await store.matchesFilter(kb, ids, filter),
        ids.map((id) => publicIds.includes(id)),
        message,
      );
    }
    t.deepEqual(
      await store.arePublic(kb, ids),
      ids.map((id) => publicIds.includes(id)),
      message,
    );
    t.is((await store.countPublicByCategory(kb)).get(category.id), publicIds.length, message);
    const entryArticles = (await store.publicEntryPoints(kb)).map((entry) => entry.articleId);
    t.deepEqual(entryArticles.sort(), [...publicIds].sort(), message);
  };
  await check(expected, 'created');

  const live = combos.find((c) => c.article.id === expected[0])!.article;
  const internal = await store.updateArticle(live, { visibility: 'INTERNAL' });
  await check([], 'made internal');
  const back = await store.updateArticle(internal, { visibility: 'PUBLIC' });
  await check([live.id], 'made public again');
  const archived = await store.updateArticle(back, { status: 'ARCHIVED' });
  await check([], 'archived');
  const draft = await store.updateArticle(archived, { status: 'DRAFT' });
  await check([], 'back to draft');
  const republished = await store.updateArticle(draft, { status: 'PUBLISHED' });
  await check([live.id], 'republished');

  const drafted = combos.find((c) => c.status === 'DRAFT' && c.visibility === 'PUBLIC')!.article;
  await store.updateArticle(drafted, { status: 'PUBLISHED' });
  await check([live.id, drafted.id], 'a draft published');
  await store.deleteArticle(republished);
  await check([drafted.id], 'deleted');
  t.is(await store.getArticle(republished.id), undefined);
  await store.deleteArticle(republished);
  t.deepEqual(await store.arePublic(kb, []), []);
});

test('channel, category and featured filters, alone and combined, with exact totals and pages, newest first', async (t) => {
  const { store, kb, article, tick } = setup();
  const [tents, boots] = [await store.createCategory(kb, { name: 'Tents' }), await store.createCategory(kb, { name: 'Boots' })];
  const channelSets: Article['channels'][] = [['ALL'], ['HELP_CENTER'], ['WIDGET', 'API'], ['INTERNAL']];
  const all: Article[] = [];
  for (let i = 0; i < 60; i++) {
    tick();
    all.push(
      await article({
        title: `Article ${i}`,
        channels: channelSets[i % 4]!,
        categoryId: i % 3 === 0 ? tents!.id : i % 3 === 1 ? boots!.id : null,
        featured: i % 5 === 0,
        status: i % 10 === 9 ? 'DRAFT' : 'PUBLISHED',
      }),
    );
  }
  const newestFirst = [...all].reverse().filter((a) => a.status === 'PUBLISHED');
  const expect = (filter: { channel?: string; categoryId?: string; featured?: boolean }) =>
    newestFirst
      .filter(
        (a) =>
          !filter.channel ||
          filter.channel === 'ALL' ||
          a.channels.includes('ALL') ||
          a.channels.includes(filter.channel as never),
      )
      .filter((a) => !filter.categoryId || a.categoryId === filter.categoryId)
      .filter((a) => filter.featured === undefined || a.featured === filter.featured)
      .map((a) => a.id);

  const filters = [
    {},
    { channel: 'ALL' },
    { channel: 'WIDGET' },
    { channel: 'HELP_CENTER' },
    { channel: 'PARTNER_PORTAL' },
    { categoryId: tents!.id },
    { featured: true },
    { featured: false },
    { channel: 'WIDGET', categoryId: boots!.id },
    { channel: 'API', featured: true },
    { categoryId: tents!.id, featured: true },
    { channel: 'HELP_CENTER', categoryId: boots!.id, featured: false },
    { channel: 'INTERNAL', categoryId: tents!.id, featured: true },
    { categoryId: randomUUID() },
  ];
  for (const filter of filters) {
    const ids = expect(filter);
    const whole = await store.listPublic(kb, filter, { offset: 0, limit: 100 });
    t.deepEqual(whole, { ids, total: ids.length }, JSON.stringify(filter));
    const pages = [];
    for (let offset = 0; offset < ids.length + 7; offset += 7)
      pages.push(...(await store.listPublic(kb, filter, { offset, limit: 7 })).ids);
    t.deepEqual(pages, ids, `paged ${JSON.stringify(filter)}`);
    t.deepEqual(await store.listPublic(kb, filter, { offset: 3, limit: 0 }), { ids: [], total: ids.length });
    const everyId = all.map((a) => a.id);
    t.deepEqual(
      await store.matchesFilter(kb, everyId, filter),
      everyId.map((id) => ids.includes(id)),
      `match ${JSON.stringify(filter)}`,
    );
  }
  const counts = await store.countPublicByCategory(kb);
  t.is(counts.get(tents!.id), expect({ categoryId: tents!.id }).length);
  t.is(counts.get(boots!.id), expect({ categoryId: boots!.id }).length);

  // An edit keeps the publication date, so the article keeps its place in the list.
  const moved = await store.updateArticle(all[0]!, { categoryId: boots!.id, channels: ['PARTNER_PORTAL'], featured: false });
  const afterMove = await store.listPublic(kb, { categoryId: tents!.id }, { offset: 0, limit: 100 });
  t.false(afterMove.ids.includes(moved.id));
  t.true(
    (await store.listPublic(kb, { categoryId: boots!.id, channel: 'PARTNER_PORTAL' }, { offset: 0, limit: 100 })).ids.includes(
      moved.id,
    ),
  );
  t.false((await store.listPublic(kb, { channel: 'WIDGET' }, { offset: 0, limit: 100 })).ids.includes(moved.id));
  t.false((await store.listPublic(kb, { featured: true }, { offset: 0, limit: 100 })).ids.includes(moved.id));
  t.true((await store.listPublic(kb, { featured: false }, { offset: 0, limit: 100 })).ids.includes(moved.id));
  t.deepEqual((await store.listPublic(kb, {}, { offset: 0, limit: 100 })).ids.at(-1), moved.id);

  const scratch = [];
  for await (const key of redis.scanIterator({ MATCH: `${prefix}:*scratch*` })) scratch.push(key);
  t.deepEqual(scratch, []);
});

test('concurrent edits of one article leave it in exactly the indexes of its final state', async (t) => {
  const { store, kb, article } = setup();
  const categories: Category[] = [];
  for (const name of ['A', 'B', 'C']) categories.push(await store.createCategory(kb, { name }));
  const live = await article({ ...published, categoryId: categories[0]!.id });
  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      store.updateArticle(live, i % 2 === 0 ? { categoryId: categories[i % 3]!.id } : { featured: i % 4 === 1, title: `T${i}` }),
    ),
  );
  const final = (await store.getArticle(live.id))!;
  const counts = await store.countPublicByCategory(kb);
  for (const category of categories) t.is(counts.get(category.id), category.id === final.categoryId ? 1 : 0);
  t.is((await store.listPublic(kb, { featured: true }, { offset: 0, limit: 10 })).total, final.featured ? 1 : 0);

  await Promise.all([store.updateArticle(live, { excerpt: 'New excerpt' }), store.updateArticle(live, { channels: ['API'] })]);
  t.like(await store.getArticle(live.id), { excerpt: 'New excerpt', channels: ['API'] });

  await store.deleteArticle(live);
  await t.throwsAsync(store.updateArticle(live, { title: 'Gone' }), { instanceOf: UnknownArticleError });
});

test('search-pending: every write of a public article enters it, leaving public takes it out, settling keeps a rewritten one', async (t) => {
  const { store, kb, article } = setup();
  const ids = async () => (await store.searchPending(kb)).map((entry) => entry.id).sort();
  const draft = await article();
  t.deepEqual(await ids(), [], 'a draft is not listed, so search has nothing to find');
  const live = await store.updateArticle(draft, published);
  const other = await article({ ...published, title: 'Other' });
  t.deepEqual(await ids(), [live.id, other.id].sort());

  // Settled as read: gone. Read, then written again: kept, under the new write's revision.
  const [first] = (await store.searchPending(kb)).filter((entry) => entry.id === live.id);
  t.is(await store.settleSearchPending(kb, [first!]), 1);
  t.deepEqual(await ids(), [other.id]);
  const edited = await store.updateArticle(live, { body: 'Pitch it on flat ground.' });
  const [read] = (await store.searchPending(kb)).filter((entry) => entry.id === live.id);
  t.true(read!.revision > first!.revision, 'each write scores it anew');
  await store.updateArticle(edited, { title: 'Pitching a tent' });
  t.is(
    await store.settleSearchPending(kb, [read!]),
    0,
    'written since it was read: its ingestion has that write to catch up with',
  );
  t.deepEqual(await ids(), [live.id, other.id].sort());

  await store.updateArticle((await store.getArticle(live.id))!, { status: 'DRAFT' });
  await store.deleteArticle(other);
  t.deepEqual(await ids(), [], 'unpublished and deleted articles leave it with their public indexes');
  t.is(await store.settleSearchPending(kb, []), 0);
});

test('views and helpfulness counters are exact under 200 concurrent increments', async (t) => {
  const { store, article } = setup();
  const [one, two] = [await article(), await article()];
  const views = await Promise.all(Array.from({ length: 200 }, () => store.incrementViews(one.id)));
  t.deepEqual(
    [...views].sort((a, b) => a - b),
    Array.from({ length: 200 }, (_, i) => i + 1),
  );
  await Promise.all(Array.from({ length: 200 }, (_, i) => store.recordFeedback(two, i % 4 !== 0)));
  t.deepEqual(await store.helpfulnessOf([one.id, two.id]), [
    { helpfulCount: 0, notHelpfulCount: 0 },
    { helpfulCount: 150, notHelpfulCount: 50 },
  ]);
  t.deepEqual(await store.recordFeedback(two, false), { helpfulCount: 150, notHelpfulCount: 51 });
  t.deepEqual(await store.viewsOf([one.id, two.id, randomUUID()]), [200, 0, 0]);
  t.deepEqual(await store.getArticles([two.id, randomUUID(), one.id]), [two, undefined, one]);
  t.deepEqual(await store.getArticles([]), []);

  await store.deleteArticle(one);
  t.deepEqual(await store.viewsOf([one.id]), [0]);
});

test('entry points: popularity by matched count, public articles only, counts kept across republication', async (t) => {
  const { store, kb, article } = setup();
  const first = await article({ ...published, entryPoints: [{ question: 'A?' }, { question: 'B?' }] });
  const second = await article({ ...published, entryPoints: [{ question: 'C?' }] });
  const draft = await article({ entryPoints: [{ question: 'D?' }] });
  const [a, b] = first.entryPoints.map((entryPoint) => entryPoint.id) as [string, string];
  const c = second.entryPoints[0]!.id;
  const d = draft.entryPoints[0]!.id;

  await Promise.all(Array.from({ length: 200 }, () => store.recordMatched(kb, b)));
  for (let i = 0; i < 3; i++) await store.recordMatched(kb, c);
  await store.recordMatched(kb, a);
  t.is(await store.recordMatched(kb, d), 0, 'an entry point of a draft is not counted');
  t.is(await store.recordMatched(randomUUID(), a), 0, 'nor one of another knowledge base');
  t.is(await store.recordMatched(kb, randomUUID()), 0);
  t.deepEqual(await store.popularEntryPoints(kb, 10), [
    { entryPointId: b, matched: 200 },
    { entryPointId: c, matched: 3 },
    { entryPointId: a, matched: 1 },
  ]);
  t.deepEqual(await store.popularEntryPoints(kb, 2), [
    { entryPointId: b, matched: 200 },
    { entryPointId: c, matched: 3 },
  ]);
  t.deepEqual(await store.popularEntryPoints(kb, 0), []);

  t.is(await store.recordClicked(c), 1);
  t.is(await store.recordClicked(c), 2);
  t.is(await store.recordClicked(randomUUID()), 0);

  const version = await store.entryPointsVersion(kb);
  const unpublished = await store.updateArticle(first, { status: 'ARCHIVED' });
  t.true((await store.entryPointsVersion(kb)) > version);
  t.deepEqual(await store.popularEntryPoints(kb, 10), [{ entryPointId: c, matched: 3 }]);
  t.deepEqual(
    (await store.publicEntryPoints(kb)).map((entry) => entry.entryPoint.id),
    [c],
  );
  t.is(await store.recordMatched(kb, b), 0);

  const republished = await store.updateArticle(unpublished, { status: 'PUBLISHED' });
  t.deepEqual(await store.popularEntryPoints(kb, 10), [
    { entryPointId: b, matched: 200 },
    { entryPointId: c, matched: 3 },
    { entryPointId: a, matched: 1 },
  ]);

  const draftVersion = await store.entryPointsVersion(kb);
  await store.updateArticle(draft, { title: 'Still a draft', entryPoints: [{ question: 'E?' }] });
  t.is(await store.entryPointsVersion(kb), draftVersion, 'a draft does not change the public entry points');

  const replaced = await store.updateArticle(republished, { entryPoints: [{ question: 'A again?' }] });
  t.true((await store.entryPointsVersion(kb)) > draftVersion);
  t.deepEqual(await store.popularEntryPoints(kb, 10), [{ entryPointId: c, matched: 3 }]);
  t.deepEqual(
    (await store.publicEntryPoints(kb)).map((entry) => entry.entryPoint.id).sort(),
    [c, replaced.entryPoints[0]!.id].sort(),
  );
  t.deepEqual(
    (await store.publicEntryPoints(kb)).find((entry) => entry.entryPoint.id === c),
    { entryPoint: second.entryPoints[0]!, articleId: second.id },
  );

  await store.deleteArticle(second);
  t.deepEqual(await store.popularEntryPoints(kb, 10), []);
  t.is(await store.findEntryPoint(c), undefined);
  t.is(await store.recordClicked(c), 0);
});
