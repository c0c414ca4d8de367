import { articleChannels } from '#articles/types.js';
import { nullable, objectOf, timestamp } from './common.js';

/** Query limits of the articles API, as the published interface sets them. */
export const articleLimits = { pageSize: 100, defaultPageSize: 20, questions: 50, defaultQuestions: 10 } as const;

const channel = {
  enum: [...articleChannels],
  description: '`X` keeps articles on channel X or on `ALL`; `ALL` applies no filter.',
} as const;
const categorySlug = { type: 'string', minLength: 1, maxLength: 200, description: 'Restrict to one category, by slug.' } as const;

export const articleListQuery = objectOf(
  {
    channel,
    categorySlug,
    categoryId: { type: 'string', minLength: 1, maxLength: 100, description: 'Restrict to one category, by id.' },
    featured: { type: 'boolean', description: 'Only featured articles (`true`) or only the others (`false`).' },
    search: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Keyword search over title, excerpt and body, ranked by relevance; without it, newest published first.',
    },
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1, description: '1-based.' },
    pageSize: { type: 'integer', minimum: 1, maximum: articleLimits.pageSize, default: articleLimits.defaultPageSize },
  },
  ['channel', 'categorySlug', 'categoryId', 'featured', 'search', 'page', 'pageSize'],
);

const questionFilters = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: articleLimits.questions,
    default: articleLimits.defaultQuestions,
  },
  channel,
  categorySlug,
} as const;

export const questionSearchQuery = objectOf(
  {
    q: { type: 'string', minLength: 1, maxLength: 200, description: 'Search text; typos and unfinished words match too.' },
    ...questionFilters,
  },
  ['limit', 'channel', 'categorySlug'],
);

export const popularQuestionsQuery = objectOf(questionFilters, ['limit', 'channel', 'categorySlug']);

export const entryPoint = objectOf({
  id: { type: 'string' },
  question: { type: 'string' },
  snippet: { type: 'string' },
  isPrimary: { type: 'boolean' },
  tags: { type: 'array', items: { type: 'string' } },
});

export const publishedArticle = objectOf({
  id: { type: 'string', description: 'Publication identifier' },
  slug: { type: 'string' },
  title: { type: 'string' },
  contentType: { const: 'ARTICLE' },
  excerpt: { type: 'string' },
  body: { type: 'string' },
  imageUrl: nullable({ type: 'string' }),
  category: nullable(objectOf({ id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' } })),
  entryPoints: { type: 'array', items: entryPoint },
  readingTimeMinutes: { type: 'integer', minimum: 1 },
  publishedAt: timestamp,
  updatedAt: timestamp,
  helpfulness: objectOf({ helpfulCount: { type: 'integer', minimum: 0 }, notHelpfulCount: { type: 'integer', minimum: 0 } }),
});

export const articleListResponse = objectOf({
  articles: { type: 'array', items: publishedArticle },
  total: { type: 'integer', minimum: 0, description: 'All matches.' },
  page: { type: 'integer', minimum: 1 },
  pageSize: { type: 'integer', minimum: 1 },
  totalPages: { type: 'integer', minimum: 0 },
});

export const feedbackRequest = objectOf({ isHelpful: { type: 'boolean' } });
export const feedbackResponse = objectOf({
  helpfulCount: { type: 'integer', minimum: 0 },
  notHelpfulCount: { type: 'integer', minimum: 0 },
});

const categoryNode: object = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'slug', 'description', 'icon', 'articleCount', 'children'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    slug: { type: 'string' },
    description: nullable({ type: 'string' }),
    icon: nullable({ type: 'string' }),
    articleCount: {
      type: 'integer',
      minimum: 0,
      description: 'Published public articles in this category and all its subcategories.',
    },
    children: { type: 'array', items: { type: 'object', description: 'Category nodes of the same shape, nested.' } },
  },
};

export const categoryTreeResponse = {
  type: 'array',
  items: categoryNode,
  description: 'Top-level categories, each with its children nested.',
};

const questionArticle = objectOf({ id: { type: 'string' }, slug: { type: 'string' }, title: { type: 'string' } });

export const questionSearchResponse = objectOf({
  questions: {
    type: 'array',
    items: objectOf({
      id: { type: 'string', description: 'The entry point id (for matched and clicked).' },
      question: { type: 'string' },
      snippet: { type: 'string' },
      isPrimary: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      score: { type: 'number', description: 'Relevance; higher is better.' },
      article: questionArticle,
    }),
  },
});

export const popularQuestionsResponse = objectOf({
  questions: {
    type: 'array',
    items: objectOf({
      id: { type: 'string' },
      question: { type: 'string' },
      snippet: { type: 'string' },
      isPrimary: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      matchedCount: { type: 'integer', minimum: 0, description: 'How often the question appeared in search results.' },
      article: questionArticle,
    }),
  },
});
