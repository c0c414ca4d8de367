import { createNotes } from '#conversations/notes.js';
import { conversationExtras } from '#conversations/search/extras.js';
import { createSearchIndexer, type SearchIndexer } from '#conversations/search/indexer.js';
import { createRatings } from '#insights/ratings.js';
import type { Logger } from '#platform/logger.js';
import type { RedisClient } from '#platform/redis.js';
import type { Stores } from '#wiring/stores.js';
import type { WorkerRole } from './task-queues.js';

/**
 * The conversation search's indexer, run by every worker that runs the conversations (not the
 * embedders): a loop in the process rather than a workflow, because its durable state is the
 * changed set in Redis (docs/agent-inbox.md, "Conversation search"), claimed in batches with a
 * lease: workers share the work, and one that dies holds its batch only until the lease lapses.
 */
export function workerSearchIndexer(
  role: WorkerRole,
  { redis, prefix, logger, stores }: { redis: RedisClient; prefix: string; logger: Logger; stores: Stores },
): SearchIndexer | undefined {
  if (role === 'embedder') return undefined;
  const { records, transcript, searchChanges, searchIndex } = stores.conversations;
  const ratings = createRatings({ redis, prefix, records, transcript, logger });
  return createSearchIndexer({
    changes: searchChanges,
    index: searchIndex,
    records,
    transcript,
    extras: conversationExtras({ notes: createNotes(redis, prefix), satisfactionOf: ratings.satisfactionOf }),
    logger,
  });
}
