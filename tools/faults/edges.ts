/**
 * `npm run faults:edges [-- --large 500 --updates 1000 --orphans 20000]`: ingestion at the edges of
 * its limits, on a stack of its own, each checked through the public API:
 *  - a bulk of `large` items of 100,000 characters each (the content limit), all searchable, each
 *    found by the words at its very end (its last chunk);
 *  - one item updated `updates` times in a row as fast as the API takes them (its workflow continues
 *    as new on the way), searchable with the last text and none of the others;
 *  - a cleanup of `orphans` items of one origin, every one deleted and listed once.
 * It prints each case's time and exits non-zero when one ends wrong.
 */
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { log } from '#deploy/local/output.js';
import { createMeasuredTenant, ingestAll, round, startMeasuredStack, waitFor } from '#bench/measured-stack.js';
import { patientJson } from './patient-fetch.js';

const { values: args } = parseArgs({
  options: {
    large: { type: 'string', default: '500' },
    updates: { type: 'string', default: '1000' },
    orphans: { type: 'string', default: '20000' },
    embedder: { type: 'string', default: 'hashed' },
  },
});

const stack = await startMeasuredStack('faults-edges', { EMBEDDINGS_PROVIDER: args.embedder!, LOG_LEVEL: 'error' });
const failures: string[] = [];
try {
  await stack.startApps(1);
  const tenant = await createMeasuredTenant(stack, ['iq:import', 'iq:read']);
  const searchUrl = (q: string) =>
    `${stack.apiUrl}/knowledge-bases/${tenant.knowledgeBaseId}/search?q=${encodeURIComponent(q)}&limit=10`;
  const search = async (q: string): Promise<any[]> => (await patientJson(searchUrl(q), 'GET', tenant.headers, undefined)).results;
  const timed = async (name: string, run: () => Promise<string[]>) => {
    const started = performance.now();
    const wrong = await run();
    log(`${name}: ${round((performance.now() - started) / 1000)} s, ${wrong.length === 0 ? 'correct' : `${wrong.length} wrong`}`);
    for (const line of wrong.slice(0, 10)) log(`  ${line}`);
    failures.push(...wrong);
  };

  await timed(`${args.large} items of 100,000 characters`, async () => {
    const items = Array.from({ length: Number(args.large) }, (_, i) => ({
      integrationId: 'edges',
      externalId: `large-${i}`,
      sourceType: 'ARTICLE',
      data: { title: `Long article ${i}`, content: longText(i) },
    }));
    // 5 MiB bodies: about 45 items of 100,000 characters each per call.
    const { failed } = await ingestAll(stack, tenant, items, 2, 45);
    const wrong = failed > 0 ? [`${failed} jobs failed`] : [];
    const inFlight = pLimit(8);
    await Promise.all(
      items.map((item, i) =>
        inFlight(async () => {
          const rows = await search(`edgeend${i}`);
          if (!rows.some((row) => row.externalId === item.externalId))
            wrong.push(`${item.externalId}: its last words are not found`);
        }),
      ),
    );
    return wrong;
  });

  await timed(`one item updated ${args.updates} times in a row`, async () => {
    const last = Number(args.updates) - 1;
    const inOrder = pLimit(1);
    await Promise.all(
      Array.from({ length: last + 1 }, (_, v) =>
        inOrder(() =>
          patientJson(`${stack.apiUrl}/ingest`, 'POST', tenant.headers, {
            integrationId: 'edges',
            externalId: 'updated',
            sourceType: 'PAGE',
            data: { title: 'Often changed page', content: `This page is at version edgever${v}.`, metadata: { version: v } },
          }),
        ),
      ),
    );
    const jobUrl = `${stack.apiUrl}/ingest/jobs/edges-updated`;
    await waitFor(
      async () => ['searchable', 'failed'].includes((await patientJson(jobUrl, 'GET', tenant.headers, undefined)).status),
      500,
    );
    const wrong: string[] = [];
    const [row] = (await search(`edgever${last}`)).filter((result) => result.externalId === 'updated');
    if (!row?.snippet.includes(`edgever${last}`) || row.metadata?.version !== last)
      wrong.push(`the last version is not the one found`);
    for (const v of [0, 1, Math.floor(last / 2), last - 1]) {
      const rows = await search(`edgever${v}`);
      if (rows.some((result) => result.snippet.includes(`edgever${v}`))) wrong.push(`version ${v} is still found`);
    }
    return wrong;
  });

  await timed(`a cleanup of ${args.orphans} orphans`, async () => {
    const items = Array.from({ length: Number(args.orphans) }, (_, i) => ({
      integrationId: 'edges',
      externalId: `orphan-${i}`,
      sourceType: 'PRODUCT',
      sourceOrigin: 'edges-orphans',
      data: { title: `Discontinued product ${i}`, content: `Product ${i} is no longer sold.` },
    }));
    const { failed } = await ingestAll(stack, tenant, items, 4);
    const wrong = failed > 0 ? [`${failed} jobs failed`] : [];
    const result = await patientJson(
      `${stack.apiUrl}/ingest/cleanup`,
      'POST',
      tenant.headers,
      {
        sourceOrigin: 'edges-orphans',
        keepExternalIds: [],
      },
      [200, 202],
      // The API holds a cleanup request up to CLEANUP_WAIT_SECONDS (60 s) before it answers 202: a
      // client that gives up sooner sends it again and again, and never hears the answer.
      { timeoutMs: 90_000 },
    );
    const done = result.orphanedExternalIds ? result : await awaitCleanup(result, tenant.headers);
    const listed = new Set<string>(done.orphanedExternalIds);
    if (done.deleted !== items.length) wrong.push(`deleted ${done.deleted} of ${items.length}`);
    if (listed.size !== done.orphanedExternalIds.length) wrong.push('an orphan is listed twice');
    if (items.some((item) => !listed.has(item.externalId))) wrong.push('an orphan is not listed');
    const left = await search('Discontinued product');
    if (left.some((row) => row.sourceOrigin === 'edges-orphans')) wrong.push('an orphan is still found');
    return wrong;
  });
} finally {
  await stack.stop();
}
process.exitCode = failures.length === 0 ? 0 : 1;

/** A cleanup answered 202 (it outlived the request): its status address is read until it has the result. */
async function awaitCleanup(accepted: any, headers: Record<string, string>): Promise<any> {
  let finished: any;
  await waitFor(async () => {
    const status = await patientJson(new URL(accepted.statusUrl, stack.apiUrl).href, 'GET', headers, undefined, [200, 202]);
    finished = status.orphanedExternalIds ? status : undefined;
    return finished !== undefined;
  }, 2_000);
  return finished;
}

/** 100,000 characters of sentences, the item's own words at the very end. */
function longText(i: number): string {
  const sentence = `Section ${i} explains one more detail of the long article, so that it fills many chunks. `;
  const end = ` The closing words are edgeend${i}.`;
  return sentence.repeat(Math.ceil(100_000 / sentence.length)).slice(0, 100_000 - end.length) + end;
}
