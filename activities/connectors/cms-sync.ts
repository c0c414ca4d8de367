import { cmsItem, modifiedAt, parseCmsExternalId } from '#connectors/cms/cms-item.js';
import type { CmsEntry, CmsKind } from '#connectors/cms/cms-types.js';
import { finishFullRun, outcomeOf } from '#connectors/finish-run.js';
import { connectorOf, openConnector } from '#connectors/open-connector.js';
import type { CmsConnector } from '#connectors/records.js';
import { sendItems } from '#connectors/send-items.js';
import { checkPageCap } from '#connectors/sync-failures.js';
import type { SyncMode } from '#connectors/sync-state.js';
import type { SyncOutcome } from '#workflows/connectors/types.js';
import { withHeartbeats } from '../heartbeats.js';
import type { ConnectorActivityDeps } from './deps.js';
import { failingPermanently } from './failures.js';
import { createRunAnnouncements } from './run-announcements.js';

/** Entries per page: the most the CMS REST API gives. */
export const defaultCmsPageSize = 100;

const kinds: CmsKind[] = ['posts', 'pages'];

export function createCmsSyncActivities(deps: ConnectorActivityDeps) {
  const { connectors, syncState } = deps;
  const announce = createRunAnnouncements(deps);

  async function open(connectorId: string) {
    const { connector, secrets } = await openConnector(connectors, connectorId, 'cms');
    return {
      connector,
      cms: deps.cmsApi(connector, secrets.applicationPassword),
      client: deps.ingestionClient(secrets.ingestionKey),
    };
  }
  type Opened = Awaited<ReturnType<typeof open>>;

  /** Sends the published entries among `entries` as part of run `runId`; how many were sent. */
  async function send(opened: Opened, runId: string, entries: CmsEntry[]): Promise<number> {
    const items = entries.flatMap((entry) => cmsItem(entry) ?? []);
    const latest = entries.map(modifiedAt).sort().at(-1);
    return sendItems({
      client: opened.client,
      state: syncState,
      connector: opened.connector,
      items,
      priority: 'low',
      runId,
      ...(latest ? { maxModified: latest } : {}),
      onBatch: deps.progress,
    });
  }

  /**
   * Entries the last full sync kept but this one did not list. Paging by number skips an entry when
   * one before it is deleted mid-sync, so each is asked for by id before cleanup may delete it; those
   * still published are sent again (and so kept).
   */
  async function rescueMissing(opened: Opened, runId: string): Promise<void> {
    const seen = new Set(await syncState.seen(opened.connector.id, runId));
    const missing = (await syncState.known(opened.connector.id))
      .filter((id) => !seen.has(id))
      .flatMap((id) => parseCmsExternalId(id) ?? []);
    for (const kind of kinds) {
      const ids = missing.filter((entry) => entry.kind === kind).map((entry) => entry.id);
      for (let start = 0; start < ids.length; start += defaultCmsPageSize) {
        const include = ids.slice(start, start + defaultCmsPageSize);
        const page = await opened.cms.list(kind, { page: 1, perPage: include.length, orderBy: 'id', include });
        await send(opened, runId, page.entries);
      }
    }
  }

  return {
    /**
     * Begins run `runId`: full when none has run yet, one was asked for, or the last is older than the
     * connector's `fullSyncEveryHours`; otherwise incremental from the watermark.
     */
    beginCmsSync: ({ connectorId, runId }: { connectorId: string; runId: string }) =>
      failingPermanently(async (): Promise<{ mode: SyncMode; modifiedAfter?: string }> => {
        const connector = await connectorOf(connectors, connectorId, 'cms');
        const status = await syncState.status(connectorId);
        const mode = fullSyncDue(connector, status, await syncState.takeFullSyncRequest(connectorId)) ? 'full' : 'incremental';
        const run = await syncState.beginRun(connectorId, runId, mode);
        if (run.mode === 'full' || !status.watermark) return { mode: run.mode };
        // The CMS keeps whole seconds and `modified_after` is strictly after: an entry changed in the
        // watermark's own second must not be missed. Entries sent again unchanged are skipped by their hash.
        return { mode: run.mode, modifiedAfter: new Date(Date.parse(status.watermark) - 1000).toISOString() };
      }),

    /** One page of posts or pages: by id for a full sync, by modification time after the watermark otherwise. */
    syncCmsPage: (input: {
      connectorId: string;
      runId: string;
      kind: CmsKind;
      page: number;
      mode: SyncMode;
      modifiedAfter?: string;
      /** Pages the run has read before this one (posts and pages together). */
      pagesRead?: number;
    }) =>
      failingPermanently(async (): Promise<{ totalPages: number; sent: number }> => {
        checkPageCap(input.pagesRead, deps.maxPagesPerRun);
        const opened = await open(input.connectorId);
        const page = await opened.cms.list(input.kind, {
          page: input.page,
          perPage: opened.connector.cms.pageSize ?? defaultCmsPageSize,
          orderBy: input.mode === 'full' ? 'id' : 'modified',
          ...(input.modifiedAfter ? { modifiedAfter: input.modifiedAfter } : {}),
        });
        return { totalPages: page.totalPages, sent: await send(opened, input.runId, page.entries) };
      }),

    /** A full run rescues what it missed and cleans up; an incremental one just records itself. */
    finishCmsSync: ({ connectorId, runId }: { connectorId: string; runId: string }) =>
      failingPermanently(() =>
        withHeartbeats(async (): Promise<SyncOutcome> => {
          const finished = await syncState.finished(connectorId, runId);
          if (finished) return announce.finished(connectorId, outcomeOf(finished));
          const opened = await open(connectorId);
          const { running } = await syncState.status(connectorId);
          if (running?.runId === runId && running.mode === 'incremental') {
            return announce.finished(connectorId, outcomeOf(await syncState.finishRun(connectorId, runId, { deleted: 0 })));
          }
          await rescueMissing(opened, runId);
          const outcome = await finishFullRun({ client: opened.client, state: syncState, connector: opened.connector, runId });
          return announce.finished(connectorId, outcome);
        }),
      ),
  };
}

function fullSyncDue(connector: CmsConnector, status: { lastFullSyncAt?: string }, requested: boolean): boolean {
  if (requested || !status.lastFullSyncAt) return true;
  return Date.now() - Date.parse(status.lastFullSyncAt) >= connector.fullSyncEveryHours * 3_600_000;
}
