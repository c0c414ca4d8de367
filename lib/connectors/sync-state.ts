import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { connectorKeys } from './redis-keys.js';
import type { CrawlCounts } from './website/crawl-state.js';

/** `full` mirrors the source and cleans up; `incremental` sends what changed since the last sync. */
export type SyncMode = 'full' | 'incremental';

export interface SyncRun {
  runId: string;
  mode: SyncMode;
  startedAt: string;
}

export interface SyncSummary extends SyncRun {
  finishedAt: string;
  outcome: 'succeeded' | 'failed';
  /** Items sent to the ingestion API. */
  sent: number;
  /** Items listed unchanged since they were last sent, so not sent again (see `sendItems`). */
  unchanged: number;
  /** Items cleanup deleted (full syncs). */
  deleted: number;
  error?: string;
  /** Website: what the crawl did with pages (found, fetched, unchanged, failed by reason, …). */
  pages?: CrawlCounts;
}

export interface ConnectorSyncStatus {
  running?: SyncRun & { sent: number; unchanged: number };
  last?: SyncSummary;
  lastFullSyncAt?: string;
  /** CMS: the latest modification time synced; incremental syncs ask for what changed after it. */
  watermark?: string;
}

/** Told of each run that ends (the metrics), once: a run ended again by a retried step is not told twice. */
export interface SyncRunObserver {
  ended(run: Pick<SyncSummary, 'mode' | 'outcome'>): void;
}

const unobserved: SyncRunObserver = { ended: () => undefined };

/**
 * What a connector remembers between and during syncs, in Redis: the run in progress (its id, the
 * external ids it sent so far, the latest modification time it saw), the last run's summary, the ids
 * of the last full sync, and what was last sent of each item. A run's activities are idempotent
 * against this state, so a page repeated after a worker restart changes nothing twice.
 */
export function createSyncState(
  redis: RedisClient,
  prefix: string,
  { now = () => new Date(), observer = unobserved }: { now?: () => Date; observer?: SyncRunObserver } = {},
) {
  const keys = connectorKeys(prefix);

  async function read(connectorId: string): Promise<Record<string, string>> {
    return redis.hGetAll(keys.syncState(connectorId));
  }

  return tagUnavailable('redis', {
    /**
     * Starts run `runId` (the sync workflow's own run id), or returns it unchanged when it has begun
     * already: a retried start changes nothing.
     */
    async beginRun(connectorId: string, runId: string, mode: SyncMode): Promise<SyncRun> {
      const state = await read(connectorId);
      if (state.running && runningId(state) === runId) return JSON.parse(state.running) as SyncRun;
      const run: SyncRun = { runId, mode, startedAt: now().toISOString() };
      await redis.hSet(keys.syncState(connectorId), {
        running: JSON.stringify(run),
        runSent: '0',
        runUnchanged: '0',
        runMaxModified: '',
      });
      return run;
    },

    /** Asks the next CMS sync to be a full one; `takeFullSyncRequest` reads and clears it. */
    async requestFullSync(connectorId: string): Promise<void> {
      await redis.hSet(keys.syncState(connectorId), 'fullSyncRequested', 'true');
    },

    async takeFullSyncRequest(connectorId: string): Promise<boolean> {
      return (await redis.hDel(keys.syncState(connectorId), 'fullSyncRequested')) === 1;
    },

    /**
     * Lets the next website crawl delete what it no longer finds however much that is (its guard
     * refuses to lose more than half); `takeDeletionsConfirmation` reads and clears it.
     */
    async confirmDeletions(connectorId: string): Promise<void> {
      await redis.hSet(keys.syncState(connectorId), 'deletionsConfirmed', 'true');
    },

    async takeDeletionsConfirmation(connectorId: string): Promise<boolean> {
      return (await redis.hDel(keys.syncState(connectorId), 'deletionsConfirmed')) === 1;
    },

    /** The shop's storefront, as the last full sync read it: product webhooks map products with it. */
    async rememberStorefront(connectorId: string, storefront: object): Promise<void> {
      await redis.hSet(keys.syncState(connectorId), 'storefront', JSON.stringify(storefront));
    },

    async storefront<T>(connectorId: string): Promise<T | undefined> {
      const stored = await redis.hGet(keys.syncState(connectorId), 'storefront');
      return stored ? (JSON.parse(stored) as T) : undefined;
    },

    /** Records ids a run sent and, for a CMS, the latest modification time among them. */
    async noteSent(connectorId: string, runId: string, externalIds: string[], maxModified?: string): Promise<void> {
      if (externalIds.length === 0 && !maxModified) return;
      // Counted by the ids new to the run, so a page sent again after a worker restart counts once.
      let added = 0;
      if (externalIds.length > 0) {
        [added] = (await redis
          .multi()
          .sAdd(keys.seen(connectorId, runId), externalIds)
          .expire(keys.seen(connectorId, runId), 7 * 24 * 3600)
          .exec()) as unknown as [number];
      }
      const state = await read(connectorId);
      if (runningId(state) !== runId) return;
      const multi = redis.multi().hIncrBy(keys.syncState(connectorId), 'runSent', added);
      if (maxModified && maxModified > (state.runMaxModified ?? ''))
        multi.hSet(keys.syncState(connectorId), 'runMaxModified', maxModified);
      await multi.exec();
    },

    /** Records ids a run listed and left alone as unchanged: kept by its cleanup all the same. */
    async noteUnchanged(connectorId: string, runId: string, externalIds: string[]): Promise<void> {
      if (externalIds.length === 0) return;
      const [added] = (await redis
        .multi()
        .sAdd(keys.seen(connectorId, runId), externalIds)
        .expire(keys.seen(connectorId, runId), 7 * 24 * 3600)
        .exec()) as unknown as [number];
      if (runningId(await read(connectorId)) === runId) await redis.hIncrBy(keys.syncState(connectorId), 'runUnchanged', added);
    },

    /** Every id the run listed (sent or unchanged): what its cleanup keeps. */
    seen: (connectorId: string, runId: string): Promise<string[]> => redis.sMembers(keys.seen(connectorId, runId)),

    /** The ids of the last full sync plus those sent since. */
    known: (connectorId: string): Promise<string[]> => redis.sMembers(keys.known(connectorId)),

    /**
     * Ends a run. A full run's `keep` (the ids cleanup kept) becomes the known set; an incremental one
     * adds what it sent. The watermark moves to the latest modification time the run saw.
     */
    async finishRun(
      connectorId: string,
      runId: string,
      result: { deleted: number; keep?: string[]; pages?: CrawlCounts },
    ): Promise<SyncSummary> {
      const state = await read(connectorId);
      const finished = finishedRun(state, runId);
      if (finished) return finished;
      const run = runOf(state, runId);
      const summary: SyncSummary = {
        ...run,
        finishedAt: now().toISOString(),
        outcome: 'succeeded',
        sent: Number(state.runSent ?? 0),
        unchanged: Number(state.runUnchanged ?? 0),
        deleted: result.deleted,
        ...(result.pages ? { pages: result.pages } : {}),
      };
      const multi = redis.multi();
      if (run.mode === 'full') {
        multi.del(keys.known(connectorId));
        if (result.keep && result.keep.length > 0) multi.sAdd(keys.known(connectorId), result.keep);
        multi.hSet(keys.syncState(connectorId), 'lastFullSyncAt', run.startedAt);
      } else {
        multi.sUnionStore(keys.known(connectorId), [keys.known(connectorId), keys.seen(connectorId, runId)]);
      }
      if (state.runMaxModified) multi.hSet(keys.syncState(connectorId), 'watermark', state.runMaxModified);
      multi
        .hSet(keys.syncState(connectorId), 'last', JSON.stringify(summary))
        .hDel(keys.syncState(connectorId), ['running', 'runSent', 'runUnchanged', 'runMaxModified'])
        .del(keys.seen(connectorId, runId));
      await multi.exec();
      observer.ended(summary);
      return summary;
    },

    /** Ends a run that could not finish; nothing was cleaned up, and the watermark stays. */
    async failRun(connectorId: string, runId: string, error: string, pages?: CrawlCounts): Promise<void> {
      const state = await read(connectorId);
      if (finishedRun(state, runId)) return;
      const failedAt = now().toISOString();
      const running = state.running ? (JSON.parse(state.running) as SyncRun) : undefined;
      // A run that failed before it began (its first step could not reach Redis) is still recorded.
      const run = running?.runId === runId ? running : { runId, mode: 'full' as const, startedAt: failedAt };
      const summary: SyncSummary = {
        ...run,
        finishedAt: failedAt,
        outcome: 'failed',
        sent: running?.runId === runId ? Number(state.runSent ?? 0) : 0,
        unchanged: running?.runId === runId ? Number(state.runUnchanged ?? 0) : 0,
        deleted: 0,
        error,
        ...(pages ? { pages } : {}),
      };
      const multi = redis
        .multi()
        .hSet(keys.syncState(connectorId), 'last', JSON.stringify(summary))
        .del(keys.seen(connectorId, runId));
      if (running?.runId === runId)
        multi.hDel(keys.syncState(connectorId), ['running', 'runSent', 'runUnchanged', 'runMaxModified']);
      await multi.exec();
      observer.ended(summary);
    },

    /** The summary of run `runId` once it has ended (a retried last step finds its work done). */
    async finished(connectorId: string, runId: string): Promise<SyncSummary | undefined> {
      return finishedRun(await read(connectorId), runId);
    },

    async status(connectorId: string): Promise<ConnectorSyncStatus> {
      const state = await read(connectorId);
      return {
        ...(state.running
          ? {
              running: {
                ...(JSON.parse(state.running) as SyncRun),
                sent: Number(state.runSent ?? 0),
                unchanged: Number(state.runUnchanged ?? 0),
              },
            }
          : {}),
        ...(state.last ? { last: JSON.parse(state.last) as SyncSummary } : {}),
        ...(state.lastFullSyncAt ? { lastFullSyncAt: state.lastFullSyncAt } : {}),
        ...(state.watermark ? { watermark: state.watermark } : {}),
      };
    },

    /** What was last sent of each of `externalIds` (`contentHash:metadataHash`), where anything was. */
    async fingerprints(connectorId: string, externalIds: string[]): Promise<Map<string, string>> {
      if (externalIds.length === 0) return new Map();
      const values = await redis.hmGet(keys.fingerprints(connectorId), externalIds);
      return new Map(externalIds.flatMap((id, i) => (values[i] ? [[id, values[i]] as [string, string]] : [])));
    },

    async saveFingerprints(connectorId: string, fingerprints: Map<string, string>): Promise<void> {
      if (fingerprints.size > 0) await redis.hSet(keys.fingerprints(connectorId), Object.fromEntries(fingerprints));
    },

    /** Forgets items cleanup deleted, so that one coming back is sent in full. */
    async forget(connectorId: string, externalIds: string[]): Promise<void> {
      if (externalIds.length > 0) await redis.hDel(keys.fingerprints(connectorId), externalIds);
    },
  });
}

export type SyncState = ReturnType<typeof createSyncState>;

function runningId(state: Record<string, string>): string | undefined {
  return state.running ? (JSON.parse(state.running) as SyncRun).runId : undefined;
}

/** The summary of `runId` when it has ended already: a retried finish changes nothing. */
function finishedRun(state: Record<string, string>, runId: string): SyncSummary | undefined {
  const last = state.last ? (JSON.parse(state.last) as SyncSummary) : undefined;
  return last?.runId === runId ? last : undefined;
}

function runOf(state: Record<string, string>, runId: string): SyncRun {
  const running = state.running ? (JSON.parse(state.running) as SyncRun) : undefined;
  if (running?.runId !== runId) throw new Error(`Sync run ${runId} is not the connector's current run.`);
  return running;
}
