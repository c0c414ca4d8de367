/**
 * Creating, reading, updating and deleting articles. Every write reads the record, applies the change
 * and writes it back only if the record is still at the revision that was read (else it tries again).
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '#platform/redis.js';
import { articleWriteSpec } from './article-writes.js';
import { assertCategoryOf } from './categories.js';
import type { ArticleKeys } from './redis-keys.js';
import { applyChanges, articleFromHash, newArticle, newEntryPoint } from './records.js';
import { freeSlug, slugify } from './slugs.js';
import { SlugTakenError, UnknownArticleError } from './store-errors.js';
import type { Article, ArticleInput } from './types.js';
import { pause, writeAttempts, writeRecord } from './write-scripts.js';

/** The article methods of the article store. */
export function articleMethods(redis: RedisClient, keys: ArticleKeys, now: () => Date) {
  async function readArticle(id: string): Promise<{ article: Article; revision: string } | undefined> {
    const hash = await redis.hGetAll(keys.article(id));
    const article = articleFromHash(hash);
    return article && { article, revision: hash.revision ?? '' };
  }

  async function getArticle(id: string): Promise<Article | undefined> {
    return (await readArticle(id))?.article;
  }

  /** Writes `next` (or deletes `current` when there is no `next`) with every index change. */
  function writeArticle(current: Article | undefined, revision: string, next: Article | undefined) {
    return writeRecord(redis, articleWriteSpec(keys, current, revision, next));
  }

  return {
    /**
     * A new article with the defaults of the contract: channels `['ALL']`, not featured, `DRAFT`,
     * `PUBLIC`, an empty excerpt (never derived from the body), no image, no category.
     */
    async createArticle(
      tenantId: string,
      knowledgeBaseId: string,
      input: ArticleInput & { title: string; body: string },
    ): Promise<Article> {
      if (input.categoryId) await assertCategoryOf(redis, keys, knowledgeBaseId, input.categoryId, 'categoryId');
      const id = randomUUID();
      const slugsKey = keys.articleSlugs(knowledgeBaseId);
      const base = slugify(input.title) || 'article';
      const entryPoints = input.entryPoints?.map(newEntryPoint);
      for (let attempt = 0; attempt < writeAttempts; attempt++) {
        const at = now().toISOString();
        const slug = input.slug ?? (await freeSlug(redis, slugsKey, base, id));
        const article = applyChanges(newArticle(id, tenantId, knowledgeBaseId, at), input, { slug, entryPoints, at });
        const result = await writeArticle(undefined, '', article);
        if (result === 'written') return article;
        if (result === 'slug_taken' && input.slug) throw new SlugTakenError(input.slug);
        await pause(attempt);
      }
      throw new Error(`Could not find a free slug for article "${input.title}".`);
    },

    /**
     * Applies `changes` to the article as it is now stored (so concurrent edits of different fields
     * both stick). The slug only changes when `slug` is sent; `entryPoints`, when sent, replaces the
     * list with new ids. `updatedAt` is set on every call; `publishedAt` on the first move to
     * PUBLISHED, and kept afterwards.
     */
    async updateArticle(article: Article, changes: ArticleInput): Promise<Article> {
      if (changes.categoryId) await assertCategoryOf(redis, keys, article.knowledgeBaseId, changes.categoryId, 'categoryId');
      const entryPoints = changes.entryPoints?.map(newEntryPoint);
      for (let attempt = 0; attempt < writeAttempts; attempt++) {
        const stored = await readArticle(article.id);
        if (!stored) throw new UnknownArticleError(article.id);
        const slug = changes.slug ?? stored.article.slug;
        const next = applyChanges(stored.article, changes, { slug, entryPoints, at: now().toISOString() });
        const result = await writeArticle(stored.article, stored.revision, next);
        if (result === 'written') return next;
        if (result === 'slug_taken') throw new SlugTakenError(next.slug);
        await pause(attempt);
      }
      throw new Error(`Article ${article.id} kept changing while it was being updated.`);
    },

    /** Deletes the article with its counters and entry points; nothing happens when it is gone already. */
    async deleteArticle(article: Article): Promise<void> {
      for (let attempt = 0; attempt < writeAttempts; attempt++) {
        const stored = await readArticle(article.id);
        if (!stored) return;
        if ((await writeArticle(stored.article, stored.revision, undefined)) === 'written') return;
        await pause(attempt);
      }
      throw new Error(`Article ${article.id} kept changing while it was being deleted.`);
    },

    getArticle,

    /** Articles by id in one round trip, `undefined` where there is none. */
    async getArticles(ids: string[]): Promise<Array<Article | undefined>> {
      if (ids.length === 0) return [];
      const multi = redis.multi();
      for (const id of ids) multi.hGetAll(keys.article(id));
      const hashes = (await multi.execAsPipeline()) as unknown as Record<string, string>[];
      return hashes.map(articleFromHash);
    },

    async findArticleBySlug(knowledgeBaseId: string, slug: string): Promise<Article | undefined> {
      const id = await redis.hGet(keys.articleSlugs(knowledgeBaseId), slug);
      return id ? getArticle(id) : undefined;
    },
  };
}
