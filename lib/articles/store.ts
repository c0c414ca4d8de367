import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { articleMethods } from './article-crud.js';
import { categoryMethods } from './categories.js';
import { counterMethods } from './counters.js';
import { entryPointMethods } from './entry-points.js';
import { publicIndexMethods } from './public-index.js';
import { articleKeys } from './redis-keys.js';
import { searchPendingMethods } from './search-pending.js';

export type { NewCategory } from './categories.js';
export type { ListFilter } from './public-index.js';
export type { PendingEntry } from './search-pending.js';
export { readingTime } from './records.js';
export { slugify } from './slugs.js';
export { SlugTakenError, UnknownArticleError, UnknownCategoryError } from './store-errors.js';

/**
 * Help-centre categories and articles in Redis under `prefix`, with the indexes the public articles
 * API reads. Every record write and the index changes it implies are applied by one Lua script, only
 * if the record is still at the revision that was read and the slug is still free: indexes never
 * disagree with the records, even under concurrent edits of one article. The public indexes hold
 * only PUBLISHED and PUBLIC articles, as sorted sets scored by `publishedAt` (newest first).
 * Counters are plain HINCRBYs, exact under concurrency. Fails with a DependencyUnavailableError
 * when Redis is down.
 *
 * The methods live by resource: `categories.ts`, `article-crud.ts` (with `article-writes.ts` and
 * `write-scripts.ts`), `public-index.ts`, `counters.ts`, `entry-points.ts` and `search-pending.ts`.
 */
export function createArticleStore(redis: RedisClient, prefix: string, now: () => Date = () => new Date()) {
  const keys = articleKeys(prefix);
  return tagUnavailable('redis', {
    ...categoryMethods(redis, keys, now),
    ...articleMethods(redis, keys, now),
    ...publicIndexMethods(redis, keys),
    ...counterMethods(redis, keys),
    ...entryPointMethods(redis, keys),
    ...searchPendingMethods(redis, keys),
  });
}

export type ArticleStore = ReturnType<typeof createArticleStore>;
