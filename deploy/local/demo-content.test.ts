import test from 'ava';
import { createArticleRequest } from '#api/schemas/articles-admin.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { DemoContentError, loadDemoContent, parseDemoContent } from './demo-content.js';
import { articleRequest } from './demo-seed.js';

const manifest = `categories:
  - slug: billing
    name: Billing
    description: Money.
suggestedQuestions:
  - question: How do I pay?
    article: paying
`;

const article = (fields: string, body = 'Pay by card.') => `---\n${fields}\n---\n${body}\n`;
const paying = article(
  'title: Paying\ncategory: billing\nexcerpt: How to pay.\nquestions:\n  - How do I pay?\n  - Can I pay by card?',
);

test('the shipped help centre reads whole: 10 to 20 articles over its categories, three suggestions of existing articles', (t) => {
  const content = loadDemoContent();
  t.true(content.articles.length >= 10 && content.articles.length <= 20, `${content.articles.length} articles`);
  const used = new Set(content.articles.map((a) => a.category));
  t.deepEqual(
    content.categories.map((c) => c.slug).filter((slug) => !used.has(slug)),
    [],
    'every category holds an article',
  );
  t.is(content.suggestedQuestions.length, 3);
  t.is(new Set(content.articles.map((a) => a.slug)).size, content.articles.length);
});

test('each shipped article becomes a request the admin route accepts', (t) => {
  const content = loadDemoContent();
  const categoryIds = new Map(content.categories.map((c, i) => [c.slug, `00000000-0000-4000-8000-00000000000${i}`]));
  for (const each of content.articles) assertMatchesSchema(t, createArticleRequest, articleRequest(each, categoryIds));
});

test('an article file gives its slug from the name, its fields from the front matter and the body below', (t) => {
  const content = parseDemoContent(manifest, [{ slug: 'paying', text: paying }]);
  t.deepEqual(content.articles, [
    {
      slug: 'paying',
      title: 'Paying',
      category: 'billing',
      excerpt: 'How to pay.',
      questions: ['How do I pay?', 'Can I pay by card?'],
      body: 'Pay by card.',
    },
  ]);
  t.deepEqual(content.suggestedQuestions, [{ question: 'How do I pay?', article: 'paying' }]);
});

test('every problem of the content is named with its file, all in one error', (t) => {
  const error = t.throws(
    () =>
      parseDemoContent(manifest, [
        { slug: 'paying', text: paying },
        { slug: 'no-front-matter', text: 'Just a body.' },
        { slug: 'Bad_Name', text: paying },
        { slug: 'no-title', text: article('category: billing\nexcerpt: x\nquestions: [a]') },
        { slug: 'not-yaml', text: article('title: [unclosed') },
        { slug: 'empty-body', text: article('title: T\ncategory: billing\nexcerpt: x\nquestions: [a]', '') },
      ]),
    { instanceOf: DemoContentError },
  );
  const problems = (error as DemoContentError).problems.join('\n');
  t.regex(problems, /articles\/no-front-matter\.md: starts with a front matter/);
  t.regex(problems, /articles\/Bad_Name\.md: the file name is the slug/);
  t.regex(problems, /articles\/no-title\.md: .*title/);
  t.regex(problems, /articles\/not-yaml\.md: not YAML/);
  t.regex(problems, /articles\/empty-body\.md: the body below the front matter is empty/);
  t.is((error as DemoContentError).problems.length, 5);
});

test('an unknown category and a suggestion without its article are refused', (t) => {
  const error = t.throws(
    () =>
      parseDemoContent(manifest.replace('article: paying', 'article: refunds'), [
        { slug: 'paying', text: paying.replace('category: billing', 'category: shipping') },
      ]),
    { instanceOf: DemoContentError },
  );
  t.deepEqual((error as DemoContentError).problems, [
    'articles/paying.md: category shipping is not in help-centre.yaml',
    'help-centre.yaml: "How do I pay?" names the article refunds, which has no file',
  ]);
});
