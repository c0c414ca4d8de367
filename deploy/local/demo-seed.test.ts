import test from 'ava';
import type { DemoArticle } from './demo-content.js';
import { articleRequest, describeSeeding, flattenCategories, matchesPublished, type PublishedArticle } from './demo-seed.js';

const demoArticle: DemoArticle = {
  slug: 'refunds',
  title: 'Refunds',
  category: 'billing',
  excerpt: 'Money back.',
  questions: ['Can I get a refund?', 'How long does a refund take?'],
  body: 'Within 30 days.',
};
const categoryIds = new Map([['billing', 'cat-1']]);

const published = (changes: Partial<PublishedArticle> = {}): PublishedArticle => ({
  id: 'article-1',
  slug: 'refunds',
  title: 'Refunds',
  excerpt: 'Money back.',
  body: 'Within 30 days.',
  category: { id: 'cat-1' },
  entryPoints: [
    { question: 'Can I get a refund?', snippet: '', isPrimary: true, tags: [] },
    { question: 'How long does a refund take?', snippet: '', isPrimary: false, tags: [] },
  ],
  ...changes,
});

test('an article is published and public, in its category, its first question the primary entry point', (t) => {
  t.deepEqual(articleRequest(demoArticle, categoryIds), {
    slug: 'refunds',
    title: 'Refunds',
    excerpt: 'Money back.',
    body: 'Within 30 days.',
    categoryId: 'cat-1',
    status: 'PUBLISHED',
    visibility: 'PUBLIC',
    entryPoints: [
      { question: 'Can I get a refund?', snippet: '', isPrimary: true, tags: [] },
      { question: 'How long does a refund take?', snippet: '', isPrimary: false, tags: [] },
    ],
  });
  t.is(articleRequest(demoArticle, new Map()).categoryId, null, 'a category the knowledge base lacks: none');
});

test('a published article that says what the content says needs no change; any field that differs does', (t) => {
  const request = articleRequest(demoArticle, categoryIds);
  t.true(matchesPublished(request, published()));
  t.true(matchesPublished(request, published({ id: 'another id' })), 'ids and counters are not content');
  const differing: Array<Partial<PublishedArticle>> = [
    { title: 'Refund policy' },
    { excerpt: '' },
    { body: 'Within 14 days.' },
    { category: null },
    { category: { id: 'cat-2' } },
    { entryPoints: published().entryPoints.slice(0, 1) },
    { entryPoints: published().entryPoints.reverse() },
    { entryPoints: published().entryPoints.map((entry) => ({ ...entry, tags: ['money'] })) },
  ];
  for (const changes of differing) t.false(matchesPublished(request, published(changes)), JSON.stringify(changes));
});

test('a category tree is flattened parents first', (t) => {
  const tree = [
    { slug: 'a', children: [{ slug: 'a1', children: [{ slug: 'a1x', children: [] }] }] },
    { slug: 'b', children: [] },
  ];
  t.deepEqual(
    flattenCategories(tree).map((node) => node.slug),
    ['a', 'a1', 'a1x', 'b'],
  );
});

test("the summary says how many articles, this start's changes and what the AI cannot answer from yet", (t) => {
  const unchanged = { slug: 'a', id: '1', outcome: 'unchanged' as const };
  const noProblems = { answerable: 2, pending: 0, failed: [] };
  t.is(
    describeSeeding({ articles: [unchanged, { ...unchanged, slug: 'b' }], ingestion: noProblems }),
    '2 articles; all answerable',
  );
  t.is(
    describeSeeding({
      articles: [
        { slug: 'a', id: '1', outcome: 'created' },
        { slug: 'b', id: '2', outcome: 'updated' },
        { slug: 'c', id: '3', outcome: 'created' },
        { slug: 'd', outcome: 'held' },
      ],
      ingestion: { answerable: 1, pending: 1, failed: [{ slug: 'c', message: 'too long' }] },
    }),
    '3 articles (2 new, 1 updated); 1 answerable so far; 1 still being ingested; not answerable: c (too long); ' +
      'left alone, unpublished in the knowledge base: d',
  );
});
