/**
 * Article and category records: a new article with its defaults, an edit applied to one, reading
 * time, and the encoding of both records as Redis hashes.
 */
import { randomUUID } from 'node:crypto';
import type { Article, ArticleChannel, ArticleInput, Category, EntryPoint } from './types.js';

/** Words a reader reads per minute, for `readingTimeMinutes`. */
const wordsPerMinute = 200;

export function newArticle(id: string, tenantId: string, knowledgeBaseId: string, at: string): Article {
  return {
    id,
    tenantId,
    knowledgeBaseId,
    slug: '',
    title: '',
    body: '',
    excerpt: '',
    imageUrl: null,
    categoryId: null,
    channels: ['ALL'],
    featured: false,
    status: 'DRAFT',
    visibility: 'PUBLIC',
    entryPoints: [],
    readingTimeMinutes: 1,
    publishedAt: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The article with `changes`; `entryPoints` are the new list with its ids (replacing the old), if sent. */
export function applyChanges(
  current: Article,
  changes: ArticleInput,
  { slug, entryPoints, at }: { slug: string; entryPoints: EntryPoint[] | undefined; at: string },
): Article {
  const body = changes.body ?? current.body;
  const status = changes.status ?? current.status;
  return {
    ...current,
    slug,
    title: changes.title ?? current.title,
    body,
    excerpt: changes.excerpt ?? current.excerpt,
    imageUrl: changes.imageUrl === undefined ? current.imageUrl : changes.imageUrl,
    categoryId: changes.categoryId === undefined ? current.categoryId : changes.categoryId,
    channels: changes.channels ? [...changes.channels] : current.channels,
    featured: changes.featured ?? current.featured,
    status,
    visibility: changes.visibility ?? current.visibility,
    entryPoints: entryPoints ?? current.entryPoints,
    readingTimeMinutes: readingTime(body),
    publishedAt: current.publishedAt ?? (status === 'PUBLISHED' ? at : null),
    updatedAt: at,
  };
}

/** An entry point as sent, with its defaults and a new id. */
export function newEntryPoint(input: NonNullable<ArticleInput['entryPoints']>[number]): EntryPoint {
  return {
    id: randomUUID(),
    question: input.question,
    snippet: input.snippet ?? '',
    isPrimary: input.isPrimary ?? false,
    tags: input.tags ?? [],
  };
}

/** Minutes at 200 words a minute, rounded up, at least 1; markup tags and lone symbols are not words. */
export function readingTime(body: string): number {
  const words = body
    .replace(/<[^>]*>/g, ' ')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return Math.max(1, Math.ceil(words / wordsPerMinute));
}

/** Null fields are left out of the hash (the record is rewritten whole). */
export function articleToHash(article: Article, revision: string): Record<string, string> {
  const { imageUrl, categoryId, publishedAt, channels, entryPoints, featured, readingTimeMinutes, ...text } = article;
  return {
    ...text,
    ...(imageUrl !== null ? { imageUrl } : {}),
    ...(categoryId !== null ? { categoryId } : {}),
    ...(publishedAt !== null ? { publishedAt } : {}),
    channels: JSON.stringify(channels),
    entryPoints: JSON.stringify(entryPoints),
    featured: String(featured),
    readingTimeMinutes: String(readingTimeMinutes),
    revision,
  };
}

export function articleFromHash(hash: Record<string, string>): Article | undefined {
  if (!hash.id) return undefined;
  return {
    id: hash.id,
    tenantId: hash.tenantId ?? '',
    knowledgeBaseId: hash.knowledgeBaseId ?? '',
    slug: hash.slug ?? '',
    title: hash.title ?? '',
    body: hash.body ?? '',
    excerpt: hash.excerpt ?? '',
    imageUrl: hash.imageUrl ?? null,
    categoryId: hash.categoryId ?? null,
    channels: JSON.parse(hash.channels ?? '["ALL"]') as ArticleChannel[],
    featured: hash.featured === 'true',
    status: (hash.status ?? 'DRAFT') as Article['status'],
    visibility: (hash.visibility ?? 'PUBLIC') as Article['visibility'],
    entryPoints: JSON.parse(hash.entryPoints ?? '[]') as EntryPoint[],
    readingTimeMinutes: Number(hash.readingTimeMinutes ?? 1),
    publishedAt: hash.publishedAt ?? null,
    createdAt: hash.createdAt ?? '',
    updatedAt: hash.updatedAt ?? '',
  };
}

export function categoryToHash(category: Category): Record<string, string> {
  const { parentId, description, icon, ...text } = category;
  return {
    ...text,
    ...(parentId !== null ? { parentId } : {}),
    ...(description !== null ? { description } : {}),
    ...(icon !== null ? { icon } : {}),
    revision: '1',
  };
}

export function categoryFromHash(hash: Record<string, string>): Category | undefined {
  if (!hash.id) return undefined;
  return {
    id: hash.id,
    knowledgeBaseId: hash.knowledgeBaseId ?? '',
    name: hash.name ?? '',
    slug: hash.slug ?? '',
    parentId: hash.parentId ?? null,
    description: hash.description ?? null,
    icon: hash.icon ?? null,
    createdAt: hash.createdAt ?? '',
  };
}
