import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import pLimit from 'p-limit';
import type { Random } from '#fuzz/hostile-requests.js';
import { patientJson } from '../patient-fetch.js';
import type { Problem, Progress } from '../progress.js';

/** Final job statuses: the item is in the index as last sent (`skipped`: it already was). */
const doneStatuses = new Set(['searchable', 'metadata_updated', 'skipped']);

interface ItemState {
  externalId: string;
  /** The marker word of each full version sent, oldest first: only the last may be found. */
  markers: string[];
  url: string;
  metadata: Record<string, unknown>;
  /** When the latest change was accepted, and when it was first seen done. */
  acceptedAt: number;
  doneAt?: number;
}

export interface ItemsSetup {
  apiUrl: string;
  headers: Record<string, string>;
  knowledgeBaseId: string;
  count: number;
  random: Random;
  progress: Progress;
  /** Job statuses by job id, read cheaply (behind the API) to see progress; the checks use the API. */
  statusesOf(jobIds: string[]): Promise<Array<string | null>>;
}

const integrationId = 'faults';

/**
 * The ingestion workload: `count` items in bulk, then, while faults happen, full new versions of a
 * third of them, metadata-only changes of a tenth, and a full version followed at once by a
 * metadata-only change for a twentieth (F5: both must apply). Every call is repeated until
 * accepted, as a connector does. The check, through the public API only: every job done, and
 * search finds each item's latest text, url and metadata, and none of its older texts.
 */
export function itemsWorkload(setup: ItemsSetup) {
  const { apiUrl, headers, knowledgeBaseId, count, random, progress } = setup;
  const items: ItemState[] = Array.from({ length: count }, (_, i) => ({
    externalId: `item-${i}`,
    markers: [],
    url: '',
    metadata: {},
    acceptedAt: 0,
  }));

  // A made-up word per version, unlike every other: found by its letters (BM25) and, as no other
  // item shares its n-grams, first by the hashed embedder's vectors too.
  const marker = () => Array.from({ length: 12 }, () => String.fromCharCode(97 + random(0, 25))).join('');
  function payloadOf(i: number, change: 'full' | 'metadata'): object {
    const item = items[i]!;
    if (change === 'full') item.markers.push(marker());
    const version = item.markers.length;
    item.url = `https://shop.example/items/${i}?v=${version}&m=${change}`;
    item.metadata = { version, change, sku: `SKU-${i}` };
    return {
      integrationId,
      externalId: item.externalId,
      sourceType: 'PRODUCT',
      sourceOrigin: 'faults',
      data: {
        title: `Fault campaign product ${i}`,
        content: `Product ${i} of the campaign, code ${item.markers.at(-1)}. It is sturdy, light and made to last.`,
        url: item.url,
        metadata: item.metadata,
      },
      ...(change === 'metadata' ? { options: { metadataOnly: true } } : {}),
    };
  }

  async function send(changes: Array<[number, 'full' | 'metadata']>): Promise<void> {
    for (let b = 0; b < changes.length; b += 100) {
      const batch = changes.slice(b, b + 100);
      const body = { items: batch.map(([i, change]) => payloadOf(i, change)) };
      await patientJson(`${apiUrl}/ingest/bulk`, 'POST', headers, body);
      const acceptedAt = performance.now();
      for (const [i] of batch) Object.assign(items[i]!, { acceptedAt, doneAt: undefined });
    }
  }

  const jobIdOf = (item: ItemState) => `${integrationId}-${item.externalId}`;
  const pending = () => items.filter((item) => item.doneAt === undefined);

  return {
    name: 'items' as const,

    async run(): Promise<void> {
      await send(items.map((_, i) => [i, 'full']));
      const order = shuffled(items.length, random);
      const third = Math.floor(count / 3);
      const tenth = Math.floor(count / 10);
      const twentieth = Math.floor(count / 20);
      const changes: Array<[number, 'full' | 'metadata']> = [
        ...order.slice(0, third).map((i): [number, 'full'] => [i, 'full']),
        ...order.slice(third, third + tenth).map((i): [number, 'metadata'] => [i, 'metadata']),
        ...order.slice(third + tenth, third + tenth + twentieth).flatMap((i): Array<[number, 'full' | 'metadata']> => [
          [i, 'full'],
          [i, 'metadata'],
        ]),
      ];
      // Sent in slices at random moments, so that changes meet the faults.
      for (let s = 0; s < changes.length; s += 50) {
        await sleep(random(500, 4_000));
        await send(changes.slice(s, s + 50));
      }
    },

    /** Reads the statuses of what is not yet done; true once everything is. */
    async settled(): Promise<boolean> {
      const waiting = pending();
      const statuses = await setup.statusesOf(waiting.map(jobIdOf)).catch(() => undefined);
      if (!statuses) return false;
      waiting.forEach((item, i) => {
        if (!doneStatuses.has(statuses[i] ?? '')) return;
        item.doneAt = performance.now();
        progress.note();
      });
      return pending().length === 0;
    },

    async check(): Promise<Problem[]> {
      const problems: Problem[] = [];
      const problem = (kind: Problem['kind'], what: string) => problems.push({ workload: 'items', kind, what });
      const inFlight = pLimit(8);
      await Promise.all(
        items.map((item) =>
          inFlight(async () => {
            const job = await patientJson(`${apiUrl}/ingest/jobs/${jobIdOf(item)}`, 'GET', headers, undefined);
            if (job.status === 'failed')
              return problem('failed', `${item.externalId}: job failed (${JSON.stringify(job.error)})`);
            if (!doneStatuses.has(job.status)) return problem('stuck', `${item.externalId}: job ${job.status}`);
            const latest = item.markers.at(-1)!;
            const found = await search(latest);
            const row = found.find((result: any) => result.externalId === item.externalId);
            if (!row?.snippet.includes(latest)) return problem('lost', `${item.externalId}: search does not find ${latest}`);
            if (row.url !== item.url || !isDeepStrictEqual(row.metadata, item.metadata)) {
              return problem('stale', `${item.externalId}: url/metadata ${row.url} ${JSON.stringify(row.metadata)}`);
            }
            for (const older of item.markers.slice(0, -1)) {
              const rows = await search(older);
              if (rows.some((result: any) => result.externalId === item.externalId && result.snippet.includes(older))) {
                problem('stale', `${item.externalId}: the older text ${older} is still found`);
              }
            }
          }),
        ),
      );
      return problems;
    },

    figures() {
      const seconds = items.filter((item) => item.doneAt).map((item) => (item.doneAt! - item.acceptedAt) / 1000);
      const slowest = Math.max(0, ...seconds);
      return { items: count, 'slowest item (accepted to searchable), s': Math.round(slowest * 10) / 10 };
    },
  };

  async function search(q: string): Promise<any[]> {
    const url = `${apiUrl}/knowledge-bases/${knowledgeBaseId}/search?q=${encodeURIComponent(q)}&limit=10`;
    return (await patientJson(url, 'GET', headers, undefined)).results;
  }
}

/** 0..n-1 in a seeded random order. */
export function shuffled(n: number, random: Random): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = random(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
