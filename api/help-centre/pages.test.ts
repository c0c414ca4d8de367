import test from 'ava';
import { articlePage, categoryPage, errorPage, homePage, searchPage } from './pages.js';

const knowledgeBase = { id: 'kb-1', name: 'Shop <b>&</b> Co' };
const summary = (slug: string, title = slug) => ({ slug, title, excerpt: `About ${title}` });
const article = {
  slug: 'returns',
  title: 'Returns "policy" <script>alert(1)</script>',
  excerpt: 'How to send it back',
  imageUrl: null,
  readingTimeMinutes: 0.4,
  updatedAt: '2026-11-20T10:00:00.000Z',
};

test('whatever a tenant names is escaped: knowledge base, titles, excerpts, categories, the search', (t) => {
  const pages = [
    homePage({ knowledgeBase, featured: [summary('a', '<img src=x onerror=alert(1)>')], latest: [], sections: [] }),
    articlePage({
      knowledgeBase,
      article,
      category: { name: '<i>Orders</i>', slug: 'orders' },
      bodyHtml: '<p>ok</p>',
      thanked: false,
    }),
    searchPage({ knowledgeBase, query: '"><script>alert(1)</script>', results: [] }),
    categoryPage({
      knowledgeBase,
      category: { name: '<u>Gear</u>', slug: 'gear', description: '<b>bold</b>' },
      subcategories: [{ name: '<s>Tents</s>', slug: 'tents' }],
      articles: [],
      page: 1,
      totalPages: 1,
    }),
  ];
  for (const page of pages) {
    t.false(page.includes('<script>'));
    t.false(page.includes('<img src=x'));
  }
  t.true(pages[0]!.includes('Shop &lt;b&gt;&amp;&lt;/b&gt; Co help centre'));
  t.true(pages[1]!.includes('<h1>Returns &quot;policy&quot; &lt;script&gt;alert(1)&lt;/script&gt;</h1>'));
  t.true(pages[1]!.includes('&lt;i&gt;Orders&lt;/i&gt;'));
  t.true(pages[2]!.includes('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'));
  t.true(pages[3]!.includes('&lt;s&gt;Tents&lt;/s&gt;'));
});

test('the article page: its facts, the cleaned body as given, and the vote form until the reader voted', (t) => {
  const page = articlePage({
    knowledgeBase,
    article: { ...article, imageUrl: 'https://shop.example/cover.png' },
    category: { name: 'Orders', slug: 'orders' },
    bodyHtml: '<p>Body</p>',
    thanked: false,
  });
  t.true(page.includes('<a href="/help/kb-1/categories/orders">Orders</a>'));
  t.true(page.includes('Updated <time datetime="2026-11-20T10:00:00.000Z">20 November 2026</time>'));
  t.true(page.includes('1 min read'), 'a short article reads in a minute, not zero');
  t.true(page.includes('<img class="cover" src="https://shop.example/cover.png" alt="">'));
  t.true(page.includes('<div class="body">\n<p>Body</p>\n</div>'));
  t.true(page.includes('<form method="post" action="/help/kb-1/returns/feedback">'));
  t.true(page.includes('<meta name="description" content="How to send it back">'));

  const thanked = articlePage({
    knowledgeBase,
    article: { ...article, imageUrl: 'http://shop.example/c.png' },
    bodyHtml: '',
    thanked: true,
  });
  t.false(thanked.includes('<form'));
  t.true(thanked.includes('Thank you for your feedback.'));
  t.false(thanked.includes('class="cover"'), 'a cover over plain http is not shown');
});

test('the home page: featured and latest first, then categories by depth, a link to all when a section shows fewer', (t) => {
  const page = homePage({
    knowledgeBase,
    featured: [summary('featured-one')],
    latest: [summary('newest')],
    sections: [
      { category: { name: 'Orders', slug: 'orders', description: 'Buying' }, depth: 0, articles: [summary('o1')], total: 12 },
      { category: { name: 'Tracking', slug: 'tracking', description: null }, depth: 1, articles: [summary('t1')], total: 1 },
      { category: { name: 'Empty', slug: 'empty', description: null }, depth: 0, articles: [], total: 0 },
    ],
  });
  const order = ['Featured', 'Latest articles', '>Orders<', '>Tracking<'].map((text) => page.indexOf(text));
  t.deepEqual(
    [...order].sort((a, b) => a - b),
    order,
  );
  t.true(order.every((index) => index > 0));
  t.true(page.includes('<h2><a href="/help/kb-1/categories/orders">Orders</a></h2>'));
  t.true(page.includes('<h3><a href="/help/kb-1/categories/tracking">Tracking</a></h3>'));
  t.true(page.includes('<a href="/help/kb-1/categories/orders">All 12 articles</a>'));
  t.false(page.includes('All 1 articles'));
  t.false(page.includes('Empty'), 'a category with nothing published is left out');
  t.true(page.includes('<a href="/help/kb-1/newest">newest</a>'));

  const bare = homePage({ knowledgeBase, featured: [], latest: [], sections: [] });
  t.true(bare.includes('Nothing is published here yet.'));
});

test('a category page links the pages around it, and only those that exist', (t) => {
  const page = (n: number) =>
    categoryPage({
      knowledgeBase,
      category: { name: 'Orders', slug: 'orders', description: null },
      subcategories: [],
      articles: [summary('a')],
      page: n,
      totalPages: 3,
    });
  t.false(page(1).includes('rel="prev"'));
  t.true(page(1).includes('<a rel="next" href="/help/kb-1/categories/orders?page=2">'));
  t.true(page(2).includes('<a rel="prev" href="/help/kb-1/categories/orders?page=1">'));
  t.true(page(2).includes('?page=3'));
  t.false(page(3).includes('rel="next"'));
});

test('the search page says how many matched, or that nothing did', (t) => {
  t.true(
    searchPage({ knowledgeBase, query: 'refund', results: [summary('a'), summary('b')] }).includes('2 articles for “refund”.'),
  );
  t.true(searchPage({ knowledgeBase, query: 'refund', results: [summary('a')] }).includes('1 article for “refund”.'));
  t.true(searchPage({ knowledgeBase, query: 'bitcoin', results: [] }).includes('No article matches “bitcoin”.'));
});

test('an error page says what happened in plain words, with the request id; a 404 names no internals', (t) => {
  const missing = errorPage({ status: 404, message: 'No route GET /help/x/y/z.' }, 'req-1');
  t.true(missing.includes('<title>Page not found</title>'));
  t.false(missing.includes('No route'));
  t.true(missing.includes('Request req-1'));
  const busy = errorPage({ status: 429, message: 'Too many <requests>.' });
  t.true(busy.includes('<h1>Too many requests</h1>'));
  t.true(busy.includes('Too many &lt;requests&gt;.'));
});
