import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { createAjv } from '#platform/json-schema.js';
import { authoringLimits } from '#api/schemas/articles-admin.js';
import { textPatterns } from '#api/schemas/text-patterns.js';

/**
 * The demo tenant's help centre as files (`demo-content/`): `help-centre.yaml` names the categories
 * and the questions the widget demo page suggests, and each `articles/<slug>.md` is one article, its
 * fields in a YAML front matter and its body (light markdown) below. Read and checked here; published
 * by `demo-seed.ts`.
 */
export interface DemoContent {
  categories: DemoCategory[];
  articles: DemoArticle[];
  /** Each answered from the article whose slug is `article`. */
  suggestedQuestions: Array<{ question: string; article: string }>;
}

export interface DemoCategory {
  slug: string;
  name: string;
  description: string;
}

export interface DemoArticle {
  slug: string;
  title: string;
  /** A category's slug. */
  category: string;
  excerpt: string;
  /** The article's entry-point questions, the first one primary. */
  questions: string[];
  body: string;
}

export class DemoContentError extends Error {
  constructor(readonly problems: string[]) {
    super(`The demo help centre is not valid:\n  - ${problems.join('\n  - ')}`);
    this.name = 'DemoContentError';
  }
}

export const demoContentDir = fileURLToPath(new URL('./demo-content', import.meta.url));

/** Reads the folder and checks it whole; every problem found is in the one error. */
export function loadDemoContent(dir = demoContentDir): DemoContent {
  const articlesDir = join(dir, 'articles');
  const files = readdirSync(articlesDir)
    .filter((name) => name.endsWith('.md'))
    .sort();
  return parseDemoContent(
    readFileSync(join(dir, 'help-centre.yaml'), 'utf8'),
    files.map((name) => ({ slug: basename(name, '.md'), text: readFileSync(join(articlesDir, name), 'utf8') })),
  );
}

const text = { type: 'string', minLength: 1, pattern: '\\S' } as const;
const slug = { type: 'string', pattern: textPatterns.slug.pattern, maxLength: authoringLimits.slug } as const;
const validSlug = new RegExp(slug.pattern);

const manifestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['categories', 'suggestedQuestions'],
  properties: {
    categories: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['slug', 'name', 'description'],
        properties: { slug, name: { ...text, maxLength: 200 }, description: { ...text, maxLength: 2_000 } },
      },
    },
    suggestedQuestions: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['question', 'article'],
        properties: { question: { ...text, maxLength: 500 }, article: slug },
      },
    },
  },
};

const frontMatterSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'category', 'excerpt', 'questions'],
  properties: {
    title: { ...text, maxLength: authoringLimits.title },
    category: slug,
    excerpt: { ...text, maxLength: authoringLimits.excerpt },
    questions: {
      type: 'array',
      minItems: 1,
      maxItems: authoringLimits.entryPoints,
      items: { ...text, maxLength: authoringLimits.question },
    },
  },
};

const ajv = createAjv({ strict: false });
const validManifest = ajv.compile(manifestSchema);
const validFrontMatter = ajv.compile(frontMatterSchema);

/** The manifest's text and each article file's slug and text, as one checked whole. */
export function parseDemoContent(manifestText: string, files: Array<{ slug: string; text: string }>): DemoContent {
  const problems: string[] = [];
  const manifest = parseYamlOr(manifestText, 'help-centre.yaml', problems);
  if (manifest !== undefined && !validManifest(manifest))
    problems.push(`help-centre.yaml: ${ajv.errorsText(validManifest.errors)}`);

  const articles: DemoArticle[] = [];
  for (const file of files) {
    const article = parseArticleFile(file.slug, file.text, problems);
    if (article) articles.push(article);
  }
  if (problems.length > 0) throw new DemoContentError(problems);

  const content = { ...(manifest as Omit<DemoContent, 'articles'>), articles };
  problems.push(...crossReferenceProblems(content));
  if (problems.length > 0) throw new DemoContentError(problems);
  return content;
}

const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/;

function parseArticleFile(slug: string, fileText: string, problems: string[]): DemoArticle | undefined {
  const file = `articles/${slug}.md`;
  if (!validSlug.test(slug) || slug.length > authoringLimits.slug) {
    problems.push(`${file}: the file name is the slug: lower-case letters and digits joined by single hyphens`);
    return undefined;
  }
  const match = FRONT_MATTER.exec(fileText.replace(/\r\n?/g, '\n'));
  if (!match) {
    problems.push(`${file}: starts with a front matter between two "---" lines, then the body`);
    return undefined;
  }
  const fields = parseYamlOr(match[1]!, file, problems);
  if (fields === undefined) return undefined;
  if (!validFrontMatter(fields)) {
    problems.push(`${file}: ${ajv.errorsText(validFrontMatter.errors, { dataVar: 'front matter' })}`);
    return undefined;
  }
  const body = match[2]!.trim();
  if (!body || body.length > authoringLimits.body) {
    problems.push(`${file}: the body below the front matter is empty or longer than ${authoringLimits.body} characters`);
    return undefined;
  }
  return { slug, ...(fields as Omit<DemoArticle, 'slug' | 'body'>), body };
}

function parseYamlOr(source: string, file: string, problems: string[]): unknown {
  try {
    return parseYaml(source);
  } catch (error) {
    problems.push(`${file}: not YAML (${(error as Error).message.split('\n')[0]})`);
    return undefined;
  }
}

/** Names that must meet: unique slugs, known categories, suggestions answered by an article that exists. */
function crossReferenceProblems(content: DemoContent): string[] {
  const problems: string[] = [];
  const categories = new Set<string>();
  for (const category of content.categories) {
    if (categories.has(category.slug)) problems.push(`help-centre.yaml: the category ${category.slug} is listed twice`);
    categories.add(category.slug);
  }
  const articles = new Set(content.articles.map((article) => article.slug));
  for (const article of content.articles) {
    if (!categories.has(article.category))
      problems.push(`articles/${article.slug}.md: category ${article.category} is not in help-centre.yaml`);
  }
  for (const { question, article } of content.suggestedQuestions) {
    if (!articles.has(article)) problems.push(`help-centre.yaml: "${question}" names the article ${article}, which has no file`);
  }
  return problems;
}
