import { randomUUID } from 'node:crypto';
import test from 'ava';
import { contentHash, type IngestAllOptions, type IngestionItem, type SyncItem } from '#connector-sdk/index.js';
import { resendEveryMs, sendItems, type SendItemsOptions } from './send-items.js';

/*
 * sendItems against stubs at its boundary: an ingestion client that records what it was given, and a
 * sync state that keeps fingerprints in a Map and records what was noted.
 */

const connector = { id: randomUUID(), integrationId: 'shop-1234', knowledgeBaseId: randomUUID() };

function stubClient(answer: (items: IngestionItem[]) => Promise<string[]> = async (items) => items.map((i) => i.externalId)) {
  const calls: Array<{ items: IngestionItem[]; options: IngestAllOptions | undefined }> = [];
  const singles: IngestionItem[] = [];
  const client: SendItemsOptions['client'] = {
    async ingest(single) {
      singles.push(single);
      return { status: 'queued', jobId: single.externalId };
    },
    async ingestAll(items, options) {
      const list: IngestionItem[] = [];
      for await (const item of items) list.push(item);
      calls.push({ items: list, options });
      return answer(list);
    },
  };
  return { client, calls, singles };
}

function stubState() {
  const fingerprints = new Map<string, string>();
  const saved: Array<{ connectorId: string; fingerprints: Map<string, string> }> = [];
  const noted: Array<{ connectorId: string; runId: string; externalIds: string[]; maxModified: string | undefined }> = [];
  const unchanged: Array<{ runId: string; externalIds: string[] }> = [];
  const state: SendItemsOptions['state'] = {
    async fingerprints(connectorId, externalIds) {
      return new Map(
        externalIds.flatMap((id) => (fingerprints.has(id) ? [[id, fingerprints.get(id)!] as [string, string]] : [])),
      );
    },
    async saveFingerprints(connectorId, given) {
      saved.push({ connectorId, fingerprints: new Map(given) });
      for (const [id, fingerprint] of given) fingerprints.set(id, fingerprint);
    },
    async noteSent(connectorId, runId, externalIds, maxModified) {
      noted.push({ connectorId, runId, externalIds, maxModified });
    },
    async noteUnchanged(_connectorId, runId, externalIds) {
      unchanged.push({ runId, externalIds });
    },
  };
  return { state, fingerprints, saved, noted, unchanged };
}

function item(externalId: string, data: Partial<SyncItem['data']> = {}): SyncItem {
  return {
    sourceType: 'PRODUCT',
    externalId,
    data: {
      title: `Product ${externalId}`,
      content: `All about product ${externalId}.`,
      url: `https://northwind.example/products/${externalId}`,
      metadata: { vendor: 'Northwind' },
      sourceData: { price: '12.00' },
      ...data,
    },
  };
}

/** An hour into one of the weekly epochs of `resendEveryMs`. */
const start = 2900 * resendEveryMs + 3_600_000;

/** Sends `items` through a fresh client stub sharing `state`, at `now`; what the client got. */
async function send(state: SendItemsOptions['state'], items: SyncItem[], now = start, runId?: string) {
  const { client, calls } = stubClient();
  await sendItems({ client, state, connector, items, priority: 'low', now: () => now, ...(runId ? { runId } : {}) });
  return calls.flatMap((call) => call.items);
}

test("items are stamped with the connector's ids and the content hash, and sent at the priority asked", async (t) => {
  const { client, calls } = stubClient();
  const { state } = stubState();
  const given = [item('1'), { ...item('2', { url: undefined }), options: { forceRefresh: true } }];

  const count = await sendItems({ client, state, connector, items: given, priority: 'high' });

  t.is(count, 2);
  t.is(calls.length, 1);
  t.deepEqual(calls[0]!.items, [
    {
      ...given[0]!,
      integrationId: 'shop-1234',
      knowledgeBaseId: connector.knowledgeBaseId,
      sourceOrigin: 'shop-1234',
      data: { ...given[0]!.data, hash: contentHash('Product 1', 'All about product 1.') },
      options: { priority: 'high' },
    },
    {
      ...given[1]!,
      integrationId: 'shop-1234',
      knowledgeBaseId: connector.knowledgeBaseId,
      sourceOrigin: 'shop-1234',
      data: { ...given[1]!.data, hash: contentHash('Product 2', 'All about product 2.') },
      options: { forceRefresh: true, priority: 'high' },
    },
  ]);
  const batchSize = calls[0]!.options?.batchSize;
  t.true(batchSize !== undefined && batchSize >= 50 && batchSize <= 100, 'batches of the published size');
});

test('an item whose url, metadata or structured data changed, but not its title or content, is sent metadata-only', async (t) => {
  const { state } = stubState();
  const first = await send(state, [item('1'), item('2'), item('3'), item('4')]);
  t.true(
    first.every((sent) => sent.options?.metadataOnly === undefined),
    'new items are sent in full',
  );

  const again = await send(state, [
    item('1', { url: 'https://northwind.example/products/one' }),
    item('2', { metadata: { vendor: 'Contoso' } }),
    item('3', { sourceData: { price: '10.00' } }),
    item('4'),
    item('5'),
  ]);
  t.deepEqual(
    again.map((sent) => [sent.externalId, sent.options?.metadataOnly]),
    [
      ['1', true],
      ['2', true],
      ['3', true],
      ['5', undefined],
    ],
    'item 4, unchanged, is not sent',
  );
  t.is(again[0]!.data.url, 'https://northwind.example/products/one');
  t.is(again[0]!.data.hash, contentHash('Product 1', 'All about product 1.'));
});

test('an item whose content changed is sent in full, whatever else changed with it', async (t) => {
  const { state } = stubState();
  await send(state, [item('1'), item('2')]);
  const again = await send(state, [
    item('1', { content: 'Now in blue.', sourceData: { price: '10.00' } }),
    item('2', { title: 'Renamed product' }),
  ]);
  t.deepEqual(
    again.map((sent) => sent.options),
    [{ priority: 'low' }, { priority: 'low' }],
  );
  t.is(again[0]!.data.hash, contentHash('Product 1', 'Now in blue.'));

  // What was sent last is what counts: the same item again is unchanged, and not sent.
  const third = await send(state, [item('1', { content: 'Now in blue.', sourceData: { price: '10.00' } })]);
  t.deepEqual(third, []);
});

test('an unchanged item is not sent but counts as seen by the run; a week on it is sent again, in full', async (t) => {
  const { state, noted, unchanged } = stubState();
  await send(state, [item('1'), item('2')], start, 'run-1');
  const sameWeek = await send(state, [item('1'), item('2', { content: 'Changed.' })], start + 3 * 24 * 3_600_000, 'run-2');
  t.deepEqual(
    sameWeek.map((sent) => sent.externalId),
    ['2'],
  );
  t.deepEqual(unchanged.at(-1), { runId: 'run-2', externalIds: ['1'] });
  t.deepEqual(noted.at(-1)!.externalIds, ['2']);

  const nextWeek = await send(state, [item('1'), item('2', { content: 'Changed.' })], start + resendEveryMs, 'run-3');
  t.deepEqual(
    nextWeek.map((sent) => [sent.externalId, sent.options?.metadataOnly]),
    [
      ['1', undefined],
      ['2', undefined],
    ],
  );
  t.deepEqual(unchanged.at(-1), { runId: 'run-3', externalIds: [] });
});

test('a blank title becomes the external id; over-long content is cut to what the API takes', async (t) => {
  const { state } = stubState();
  const long = 'x'.repeat(100_000) + 'y'.repeat(5_000);
  const [blank, longContent] = await send(state, [item('sku-1', { title: '   ' }), item('sku-2', { content: long })]);

  t.is(blank!.data.title, 'sku-1');
  t.is(blank!.data.hash, contentHash('sku-1', 'All about product sku-1.'));
  t.is(longContent!.data.content.length, 100_000);
  t.is(longContent!.data.content, long.slice(0, 100_000));
  t.is(longContent!.data.hash, contentHash('Product sku-2', long.slice(0, 100_000)));
});

test('fingerprints are saved only once ingestAll has resolved', async (t) => {
  const { state, saved, noted } = stubState();
  let accept!: () => void;
  const accepted = new Promise<void>((resolve) => (accept = resolve));
  const { client, calls } = stubClient(async (items) => {
    await accepted;
    return items.map((i) => i.externalId);
  });

  const sending = sendItems({ client, state, connector, items: [item('1'), item('2')], priority: 'low', runId: 'run-1' });
  while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  t.is(saved.length, 0, 'nothing saved while the ingestion API has not accepted the items');
  t.is(noted.length, 0);

  accept();
  t.is(await sending, 2);
  t.is(saved.length, 1);
  t.is(saved[0]!.connectorId, connector.id);
  t.deepEqual([...saved[0]!.fingerprints.keys()], ['1', '2']);
  t.is(noted.length, 1);
});

test('when ingestAll rejects, no fingerprint is saved and nothing is noted', async (t) => {
  const { state, saved, noted, fingerprints } = stubState();
  const refused = new Error('batch refused');
  const { client } = stubClient(async () => {
    throw refused;
  });

  const error = await t.throwsAsync(
    sendItems({ client, state, connector, items: [item('1')], priority: 'low', runId: 'run-1', maxModified: '2025-01-01' }),
  );
  t.is(error, refused);
  t.deepEqual(saved, []);
  t.deepEqual(noted, []);
  t.is(fingerprints.size, 0);

  // So the item's next send, with a url changed meanwhile, goes in full rather than metadata-only.
  const [next] = await send(state, [item('1', { url: 'https://northwind.example/p/1' })]);
  t.is(next!.options?.metadataOnly, undefined);
});

test('the run is told the ids sent and the latest modification time', async (t) => {
  const { state, noted } = stubState();
  const { client } = stubClient();
  await sendItems({
    client,
    state,
    connector,
    items: [item('post-1'), item('post-2', { title: '' })],
    priority: 'low',
    runId: 'run-7',
    maxModified: '2025-02-03T04:05:06.000Z',
  });
  await sendItems({ client, state, connector, items: [item('post-3')], priority: 'low', runId: 'run-7' });

  t.deepEqual(noted, [
    { connectorId: connector.id, runId: 'run-7', externalIds: ['post-1', 'post-2'], maxModified: '2025-02-03T04:05:06.000Z' },
    { connectorId: connector.id, runId: 'run-7', externalIds: ['post-3'], maxModified: undefined },
  ]);
});

test('without a run id nothing is noted', async (t) => {
  const { state, noted, saved } = stubState();
  const { client, calls } = stubClient();
  t.is(await sendItems({ client, state, connector, items: [item('1')], priority: 'high' }), 1);
  t.is(calls.length, 1);
  t.is(saved.length, 1, 'fingerprints are still saved');
  t.deepEqual(noted, []);
});

test('an empty list makes no ingestion call', async (t) => {
  const { state, fingerprints } = stubState();
  const { client, calls } = stubClient();
  t.is(await sendItems({ client, state, connector, items: [], priority: 'low', runId: 'run-1' }), 0);
  t.deepEqual(calls, []);
  t.is(fingerprints.size, 0);
});

test('a change the shop told of is sent on its own, as a person’s change, not in a bulk call', async (t) => {
  const { client, calls, singles } = stubClient();
  const { state } = stubState();
  const sent = await sendItems({ client, state, connector, items: [item('p-1')], priority: 'high', oneByOne: true });
  t.is(sent, 1);
  t.deepEqual(calls, []);
  t.deepEqual(
    singles.map((single) => [single.externalId, single.options?.priority]),
    [['p-1', 'high']],
  );
});
