import test from 'ava';
import { cmsExternalId, cmsItem, modifiedAt, parseCmsExternalId } from './cms-item.js';
import type { CmsEntry } from './cms-types.js';

function post(overrides: Partial<CmsEntry> = {}): CmsEntry {
  return {
    id: 12,
    type: 'post',
    slug: 'tips-tricks',
    status: 'publish',
    link: 'https://blog.example/tips-tricks/',
    date_gmt: '2024-03-05T09:15:00',
    modified_gmt: '2024-04-01T17:02:33',
    title: { rendered: 'Tips &#038; tricks &#8211; what&#8217;s new' },
    content: {
      rendered:
        '<h2>Setup</h2>\n<p>Open <strong>Settings</strong> &amp; pick a plan for 10&nbsp;&euro;.</p>\n<ul>\n<li>One</li>\n<li>Two</li>\n</ul>\n<script>alert(1)</script>\n',
      protected: false,
    },
    excerpt: { rendered: '<p>Open Settings &amp; pick a plan [&hellip;]</p>\n', protected: false },
    author: 2,
    categories: [3, 1],
    tags: [8],
    _embedded: {
      author: [{ id: 2, name: 'Zoë O&#8217;Neil', slug: 'zoe' }],
      'wp:term': [
        [
          { id: 3, name: 'News &amp; Events', slug: 'news-events', taxonomy: 'category' },
          { id: 1, name: 'Uncategorized', slug: 'uncategorized', taxonomy: 'category' },
        ],
        [{ id: 8, name: 'tips &amp; tricks', slug: 'tips-tricks', taxonomy: 'post_tag' }],
      ],
    },
    ...overrides,
  };
}

function page(overrides: Partial<CmsEntry> = {}): CmsEntry {
  return {
    id: 7,
    type: 'page',
    slug: 'shipping',
    status: 'publish',
    link: 'https://blog.example/help/shipping/',
    date_gmt: '2023-11-20T12:00:00',
    modified_gmt: '2024-01-02T08:00:00',
    title: { rendered: 'Shipping &amp; returns' },
    content: { rendered: '<p>We ship in 2&ndash;3 days.</p>\n', protected: false },
    excerpt: { rendered: '<p>We ship in 2&ndash;3 days.</p>\n', protected: false },
    author: 1,
    parent: 5,
    _embedded: { author: [{ id: 1, name: 'Ada Lovelace', slug: 'ada' }] },
    ...overrides,
  };
}

test('a post becomes an ARTICLE with text, not HTML, and its author and terms by name', (t) => {
  const item = cmsItem(post());
  t.deepEqual(item, {
    sourceType: 'ARTICLE',
    externalId: 'post-12',
    data: {
      title: 'Tips & tricks – what’s new',
      content: 'Setup\n\nOpen Settings & pick a plan for 10\u00a0€.\n\n- One\n- Two',
      url: 'https://blog.example/tips-tricks/',
      metadata: { cmsId: 12, type: 'post', slug: 'tips-tricks' },
      sourceData: {
        title: 'Tips & tricks – what’s new',
        excerpt: 'Open Settings & pick a plan […]',
        author: 'Zoë O’Neil',
        category: 'News & Events',
        categories: ['News & Events', 'Uncategorized'],
        tags: ['tips & tricks'],
        publishedAt: '2024-03-05T09:15:00.000Z',
        modifiedAt: '2024-04-01T17:02:33.000Z',
        slug: 'tips-tricks',
      },
    },
  });
  t.false('hash' in (item?.data ?? {}));
});

test('a page becomes a PAGE with its parent id', (t) => {
  const item = cmsItem(page());
  t.is(item?.sourceType, 'PAGE');
  t.is(item?.externalId, 'page-7');
  t.is(item?.data.title, 'Shipping & returns');
  t.is(item?.data.content, 'We ship in 2–3 days.');
  t.deepEqual(item?.data.metadata, { cmsId: 7, type: 'page', slug: 'shipping' });
  t.deepEqual(item?.data.sourceData, {
    title: 'Shipping & returns',
    excerpt: 'We ship in 2–3 days.',
    author: 'Ada Lovelace',
    publishedAt: '2023-11-20T12:00:00.000Z',
    modifiedAt: '2024-01-02T08:00:00.000Z',
    slug: 'shipping',
    parentId: 5,
  });
  t.is(cmsItem(page({ parent: 0 }))?.data.sourceData?.parentId, null);
});

test('without _embedded the author and terms are unknown, not invented', (t) => {
  const { _embedded, ...bare } = post();
  t.like(cmsItem(bare)?.data.sourceData, { author: null, category: null, categories: [], tags: [] });
  t.is(cmsItem(page({ _embedded: undefined }))?.data.sourceData?.author, null);
});

test('an author the CMS embeds as an error object counts as unknown', (t) => {
  const withError = post({ _embedded: { author: [{ code: 'rest_user_invalid_id', message: 'Invalid user ID.' } as never] } });
  t.is(cmsItem(withError)?.data.sourceData?.author, null);
});

test('only published, unprotected entries become items', (t) => {
  for (const status of ['draft', 'private', 'pending', 'future'] as const) {
    t.is(cmsItem(post({ status })), undefined, status);
    t.is(cmsItem(page({ status })), undefined, status);
  }
  t.is(cmsItem(post({ content: { rendered: '', protected: true }, excerpt: { rendered: '', protected: true } })), undefined);
});

test('an entry without a title is still ingestible, titled by its slug', (t) => {
  t.is(cmsItem(post({ title: { rendered: '' } }))?.data.title, 'tips-tricks');
  t.is(cmsItem(post({ title: { rendered: '  <em> </em> ' }, slug: '' }))?.data.title, 'post-12');
});

test('a title with markup or line breaks becomes one line of text', (t) => {
  t.is(cmsItem(post({ title: { rendered: 'Hello <em>big</em>\n world' } }))?.data.title, 'Hello big world');
});

test('modifiedAt is the modification time in ISO 8601 with Z', (t) => {
  t.is(modifiedAt(post()), '2024-04-01T17:02:33.000Z');
  t.is(modifiedAt(post({ modified_gmt: '2024-04-01T17:02:33+00:00' })), '2024-04-01T17:02:33.000Z');
  t.throws(() => modifiedAt(post({ modified_gmt: 'yesterday' })), { instanceOf: TypeError });
  // Ordering the strings orders the times: a watermark can be the largest one.
  t.true(modifiedAt(page()) < modifiedAt(post()));
});

test('external ids are per type and read back', (t) => {
  t.is(cmsExternalId('posts', 12), 'post-12');
  t.is(cmsExternalId('post', 12), 'post-12');
  t.is(cmsExternalId('pages', 7), 'page-7');
  t.is(cmsExternalId('page', 7), 'page-7');
  t.deepEqual(parseCmsExternalId('post-12'), { kind: 'posts', id: 12 });
  t.deepEqual(parseCmsExternalId('page-7'), { kind: 'pages', id: 7 });
  for (const other of ['product-12', 'post-', 'post-012', 'post-1.5', 'page-7x', 'post-99999999999999999999']) {
    t.is(parseCmsExternalId(other), undefined, other);
  }
});
