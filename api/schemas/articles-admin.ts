import { articleChannels, articleStatuses, articleVisibilities } from '#articles/types.js';
import { keysOf, name, nullable, objectOf, text, timestamp, uuid } from './common.js';
import { ingestLimits } from './ingest.js';
import { textPatterns } from './text-patterns.js';

/**
 * Lengths of authored fields. An article's excerpt, a blank line and its body are what the AI feed
 * ingests, so together they stay within the ingestion content limit.
 */
export const authoringLimits = {
  slug: 100,
  title: 500,
  excerpt: 1_000,
  body: ingestLimits.contentChars - 1_000 - 2,
  entryPoints: 50,
  question: 500,
  snippet: 2_000,
  tags: 20,
  tag: 100,
} as const;

const slug = {
  type: 'string',
  minLength: 1,
  maxLength: authoringLimits.slug,
  pattern: textPatterns.slug.pattern,
  description: 'Lower-case letters and digits joined by single hyphens; unique in the knowledge base.',
  examples: ['how-to-pitch-a-tent'],
} as const;

const optionalText = (maxLength: number) => nullable(text({ maxLength }));

// Categories

export const createCategoryRequest = objectOf(
  {
    name,
    slug: { ...slug, description: `${slug.description} Derived from the name when absent ("-2", "-3"… when taken).` },
    parentId: nullable({ ...uuid, description: 'A category of the same knowledge base.' }),
    description: optionalText(2_000),
    icon: optionalText(200),
  },
  ['slug', 'parentId', 'description', 'icon'],
);

export const categoryResponse = objectOf({
  id: uuid,
  name,
  slug: { type: 'string' },
  parentId: nullable(uuid),
  description: nullable({ type: 'string' }),
  icon: nullable({ type: 'string' }),
});

// Articles

const entryPointRequest = objectOf(
  {
    question: text({ minLength: 1, maxLength: authoringLimits.question }),
    snippet: text({ maxLength: authoringLimits.snippet, description: "Default ''." }),
    isPrimary: { type: 'boolean', description: 'Default false.' },
    tags: {
      type: 'array',
      maxItems: authoringLimits.tags,
      items: text({ minLength: 1, maxLength: authoringLimits.tag }),
      description: 'Default [].',
    },
  },
  ['snippet', 'isPrimary', 'tags'],
);

const articleFields = {
  title: text({ minLength: 1, maxLength: authoringLimits.title }),
  body: text({
    minLength: 1,
    maxLength: authoringLimits.body,
    description: 'HTML or markdown, kept as sent; `readingTimeMinutes` is derived from it (200 words a minute).',
  }),
  slug: { ...slug, description: `${slug.description} Derived from the title at creation when absent ("-2", "-3"… when taken).` },
  excerpt: text({ maxLength: authoringLimits.excerpt, description: "Default '' (never derived from the body)." }),
  imageUrl: nullable({ type: 'string', format: 'uri', pattern: textPatterns.httpAddress.pattern, maxLength: 2048 }),
  categoryId: nullable({ ...uuid, description: 'A category of the same knowledge base.' }),
  channels: {
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { enum: [...articleChannels] },
    description: 'Default ["ALL"]; `ALL` shows the article on every channel.',
  },
  featured: { type: 'boolean', description: 'Default false.' },
  status: { enum: [...articleStatuses], description: 'Default DRAFT. The first move to PUBLISHED sets `publishedAt`.' },
  visibility: { enum: [...articleVisibilities], description: 'Default PUBLIC.' },
  entryPoints: {
    type: 'array',
    maxItems: authoringLimits.entryPoints,
    items: entryPointRequest,
    description: 'Questions the article answers; each gets an id. Sending the list replaces it (with new ids).',
  },
} as const;

export const createArticleRequest = objectOf(articleFields, keysOf(articleFields, { except: ['title', 'body'] }));

export const updateArticleRequest = { ...objectOf(articleFields, keysOf(articleFields)), minProperties: 1 };

export const authoredArticleResponse = objectOf({
  id: uuid,
  slug: { type: 'string' },
  title: { type: 'string' },
  body: { type: 'string' },
  excerpt: { type: 'string' },
  imageUrl: nullable({ type: 'string' }),
  categoryId: nullable(uuid),
  channels: { type: 'array', items: { enum: [...articleChannels] } },
  featured: { type: 'boolean' },
  status: { enum: [...articleStatuses] },
  visibility: { enum: [...articleVisibilities] },
  entryPoints: {
    type: 'array',
    items: objectOf({
      id: uuid,
      question: { type: 'string' },
      snippet: { type: 'string' },
      isPrimary: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
    }),
  },
  readingTimeMinutes: { type: 'integer', minimum: 1 },
  publishedAt: { ...nullable(timestamp), description: 'Set on the first move to PUBLISHED, kept afterwards.' },
  createdAt: timestamp,
  updatedAt: timestamp,
});
