/**
 * What one article write changes, as a guarded write for `writeRecord`: the record, its slug, its
 * entry points, its place in the public indexes (only PUBLISHED and PUBLIC articles are in them) and
 * in the set of articles search matches on their own text until their ingestion catches up.
 */
import type { ArticleKeys } from './redis-keys.js';
import { articleToHash } from './records.js';
import { concreteChannels, isPublic, type Article } from './types.js';
import type { WriteSpec } from './write-scripts.js';

/** Writes `next` (or deletes `current` when there is no `next`) with every index change. */
export function articleWriteSpec(
  keys: ArticleKeys,
  current: Article | undefined,
  revision: string,
  next: Article | undefined,
): WriteSpec {
  const { id, knowledgeBaseId } = (next ?? current)!;
  return {
    guard: [keys.article(id), revision],
    ...(next ? { claim: [keys.articleSlugs(knowledgeBaseId), next.slug, id] } : {}),
    commands: articleWriteCommands(keys, current, next, String(Number(revision || '0') + 1)),
    ...(next && isPublic(next) && next.entryPoints.length > 0
      ? {
          popular: [
            keys.popular(knowledgeBaseId),
            next.entryPoints.map((entryPoint) => [keys.entryPoint(entryPoint.id), entryPoint.id]),
          ],
        }
      : {}),
  };
}

/** The record write, the slug, entry-point and public-index changes of one article write, as Redis commands. */
function articleWriteCommands(keys: ArticleKeys, current: Article | undefined, next: Article | undefined, revision: string) {
  const { id, knowledgeBaseId: kb } = (next ?? current)!;
  const commands: string[][] = [];
  const currentIds = new Set(current?.entryPoints.map((entryPoint) => entryPoint.id));
  const nextIds = new Set(next?.entryPoints.map((entryPoint) => entryPoint.id));

  if (next)
    commands.push(['DEL', keys.article(id)], ['HSET', keys.article(id), ...Object.entries(articleToHash(next, revision)).flat()]);
  else commands.push(['DEL', keys.article(id), keys.counters(id)]);

  if (current && current.slug !== next?.slug) commands.push(['HDEL', keys.articleSlugs(kb), current.slug]);
  if (next && next.slug !== current?.slug) commands.push(['HSET', keys.articleSlugs(kb), next.slug, id]);

  for (const entryPointId of currentIds) if (!nextIds.has(entryPointId)) commands.push(['DEL', keys.entryPoint(entryPointId)]);
  for (const entryPoint of next?.entryPoints ?? []) {
    if (currentIds.has(entryPoint.id)) continue;
    commands.push([
      'HSET',
      keys.entryPoint(entryPoint.id),
      'articleId',
      id,
      'knowledgeBaseId',
      kb,
      'entryPoint',
      JSON.stringify(entryPoint),
    ]);
  }

  const wasPublic = current !== undefined && isPublic(current);
  const willBePublic = next !== undefined && isPublic(next);
  if (wasPublic) {
    commands.push(['ZREM', keys.publicAll(kb), id], ['ZREM', keys.publicFeatured(kb, current.featured), id]);
    for (const channel of concreteChannels) commands.push(['ZREM', keys.publicChannel(kb, channel), id]);
    if (current.categoryId) commands.push(['ZREM', keys.publicCategory(kb, current.categoryId), id]);
    if (currentIds.size > 0) {
      commands.push(['HDEL', keys.publicEntryPoints(kb), ...currentIds], ['ZREM', keys.popular(kb), ...currentIds]);
    }
  }
  if (willBePublic) {
    const score = String(Date.parse(next.publishedAt ?? next.updatedAt));
    commands.push(['ZADD', keys.publicAll(kb), score, id]);
    for (const channel of channelsOf(next)) commands.push(['ZADD', keys.publicChannel(kb, channel), score, id]);
    commands.push(['ZADD', keys.publicFeatured(kb, next.featured), score, id]);
    if (next.categoryId) commands.push(['ZADD', keys.publicCategory(kb, next.categoryId), score, id]);
    if (next.entryPoints.length > 0) {
      const fields = next.entryPoints.flatMap((entryPoint) => [entryPoint.id, JSON.stringify({ entryPoint, articleId: id })]);
      commands.push(['HSET', keys.publicEntryPoints(kb), ...fields]);
    }
    // Listed from this write on, searchable on its own text until its ingestion catches up (search-pending.ts).
    commands.push(['ZADD', keys.searchPending(kb), revision, id]);
  } else if (wasPublic) commands.push(['ZREM', keys.searchPending(kb), id]);
  if (wasPublic || willBePublic) commands.push(['INCR', keys.entryPointsVersion(kb)], ['INCR', keys.listVersion(kb)]);
  return commands;
}

/** The concrete channels an article shows on: all of them for `ALL`. */
function channelsOf(article: Pick<Article, 'channels'>): readonly string[] {
  return article.channels.includes('ALL') ? concreteChannels : article.channels;
}
