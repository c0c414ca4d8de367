/** Help-centre categories: creating one with a free slug, reading them, and checking that one belongs to a knowledge base. */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '#platform/redis.js';
import type { ArticleKeys } from './redis-keys.js';
import { categoryFromHash, categoryToHash } from './records.js';
import { freeSlug, slugify } from './slugs.js';
import { SlugTakenError, UnknownCategoryError } from './store-errors.js';
import type { Category } from './types.js';
import { pause, writeAttempts, writeRecord } from './write-scripts.js';

export interface NewCategory {
  name: string;
  slug?: string;
  parentId?: string | null;
  description?: string | null;
  icon?: string | null;
}

export async function readCategory(redis: RedisClient, keys: ArticleKeys, id: string): Promise<Category | undefined> {
  return categoryFromHash(await redis.hGetAll(keys.category(id)));
}

/** Throws UnknownCategoryError (naming `field`) unless `categoryId` is a category of the knowledge base. */
export async function assertCategoryOf(
  redis: RedisClient,
  keys: ArticleKeys,
  knowledgeBaseId: string,
  categoryId: string,
  field: 'categoryId' | 'parentId',
): Promise<void> {
  const category = await readCategory(redis, keys, categoryId);
  if (category?.knowledgeBaseId !== knowledgeBaseId) throw new UnknownCategoryError(field, categoryId);
}

/** The category methods of the article store. */
export function categoryMethods(redis: RedisClient, keys: ArticleKeys, now: () => Date) {
  const getCategory = (id: string): Promise<Category | undefined> => readCategory(redis, keys, id);

  return {
    /** A category; its slug is derived from the name when absent (`-2`, `-3`… when taken). */
    async createCategory(knowledgeBaseId: string, input: NewCategory): Promise<Category> {
      if (input.parentId) await assertCategoryOf(redis, keys, knowledgeBaseId, input.parentId, 'parentId');
      const id = randomUUID();
      const slugsKey = keys.categorySlugs(knowledgeBaseId);
      const base = slugify(input.name) || 'category';
      for (let attempt = 0; attempt < writeAttempts; attempt++) {
        const category: Category = {
          id,
          knowledgeBaseId,
          name: input.name,
          slug: input.slug ?? (await freeSlug(redis, slugsKey, base, id)),
          parentId: input.parentId ?? null,
          description: input.description ?? null,
          icon: input.icon ?? null,
          createdAt: now().toISOString(),
        };
        const result = await writeRecord(redis, {
          guard: [keys.category(id), ''],
          claim: [slugsKey, category.slug, id],
          commands: [
            ['HSET', keys.category(id), ...Object.entries(categoryToHash(category)).flat()],
            ['HSET', slugsKey, category.slug, id],
            ['RPUSH', keys.categories(knowledgeBaseId), id],
            ['INCR', keys.listVersion(knowledgeBaseId)],
          ],
        });
        if (result === 'written') return category;
        if (result === 'slug_taken' && input.slug) throw new SlugTakenError(input.slug);
        await pause(attempt);
      }
      throw new Error(`Could not find a free slug for category "${input.name}".`);
    },

    getCategory,

    /** A knowledge base's categories in creation order. */
    async listCategories(knowledgeBaseId: string): Promise<Category[]> {
      const ids = await redis.lRange(keys.categories(knowledgeBaseId), 0, -1);
      if (ids.length === 0) return [];
      const multi = redis.multi();
      for (const id of ids) multi.hGetAll(keys.category(id));
      const hashes = (await multi.execAsPipeline()) as unknown as Record<string, string>[];
      return hashes.flatMap((hash) => categoryFromHash(hash) ?? []);
    },

    async findCategoryBySlug(knowledgeBaseId: string, slug: string): Promise<Category | undefined> {
      const id = await redis.hGet(keys.categorySlugs(knowledgeBaseId), slug);
      return id ? getCategory(id) : undefined;
    },
  };
}
