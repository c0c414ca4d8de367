import { randomUUID } from 'node:crypto';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createCrawlState, type CrawlStep, type PageMemory } from './crawl-state.js';

/* A crawl's state in a real Redis: the frontier in the order found, the cap, claims, steps committed once. */

const testRedis = useTestRedis(test);

function setup() {
  return { crawl: createCrawlState(testRedis.redis(), testRedis.prefix), connectorId: randomUUID(), runId: randomUUID() };
}

const page = (n: number) => `https://docs.example/page-${n}.html`;
const step = (done: string[], found: string[], more: Partial<CrawlStep> = {}): CrawlStep => ({
  done,
  found,
  counts: {},
  failures: [],
  memories: new Map(),
  ...more,
});

test('pages join the frontier once, in the order found, up to the cap; the rest are counted', async (t) => {
  const { crawl, connectorId, runId } = setup();
  t.is(await crawl.seed(connectorId, runId, [page(1), page(2), page(1)], 5), 2);
  t.is(await crawl.seed(connectorId, runId, [page(2), page(3)], 5), 1, 'a retried seeding adds nothing twice');
  t.deepEqual(await crawl.next(connectorId, runId, 10), [page(1), page(2), page(3)]);

  await crawl.commit(connectorId, runId, step([page(1)], [page(3), page(4), page(5), page(6), page(7)]), 5);
  t.deepEqual(await crawl.next(connectorId, runId, 10), [page(2), page(3), page(4), page(5)]);
  // Found again by the next step, the pages past the cap count once each.
  await crawl.commit(connectorId, runId, step([page(2)], [page(6), page(7), page(8)]), 5);
  t.like(await crawl.counts(connectorId, runId), { found: 5, overCap: 3 });
  t.is(await crawl.remaining(connectorId, runId), 3);
});

test('a step committed twice (retried after a crash) changes the frontier once', async (t) => {
  const { crawl, connectorId, runId } = setup();
  await crawl.seed(connectorId, runId, [page(1), page(2)], 100);
  const first = step([page(1)], [page(3)], { counts: { fetched: 1 } });
  await crawl.commit(connectorId, runId, first, 100);
  await crawl.commit(connectorId, runId, first, 100);
  t.deepEqual(await crawl.next(connectorId, runId, 10), [page(2), page(3)]);
  t.is((await crawl.counts(connectorId, runId)).found, 3);
});

test('a claim is the first page’s: another page with the same canonical address or text is told who holds it', async (t) => {
  const { crawl, connectorId, runId } = setup();
  t.is(await crawl.claim(connectorId, runId, 'url:https://docs.example/a', page(1)), undefined);
  t.is(await crawl.claim(connectorId, runId, 'url:https://docs.example/a', page(1)), undefined, 'its own claim, asked again');
  t.is(await crawl.claim(connectorId, runId, 'url:https://docs.example/a', page(2)), page(1));
});

test('failures are counted by reason and listed newest first; memories are kept across crawls, the unread forgotten', async (t) => {
  const { crawl, connectorId, runId } = setup();
  const at = new Date().toISOString();
  const memory = (run: string): PageMemory => ({ etag: '"v1"', items: ['a'], links: [page(2)], runId: run });
  await crawl.commit(
    connectorId,
    'earlier-run',
    step([], [], {
      memories: new Map([
        [page(1), memory('earlier-run')],
        [page(2), memory('earlier-run')],
      ]),
    }),
    100,
  );
  await crawl.commit(
    connectorId,
    runId,
    step([], [], {
      failures: [
        { url: page(3), reason: 'http_503', message: 'answered 503 Service Unavailable', at },
        { url: page(4), reason: 'timeout', message: 'no answer from docs.example in time', at },
      ],
      memories: new Map([[page(1), memory(runId)]]),
      maxInFlight: 2,
    }),
    100,
  );
  t.like(await crawl.counts(connectorId, runId), { failed: 2, failedBy: { http_503: 1, timeout: 1 }, maxInFlight: 2 });
  t.deepEqual(
    (await crawl.failures(connectorId, runId)).map((failure) => failure.reason),
    ['timeout', 'http_503'],
  );
  await crawl.forgetUnread(connectorId, runId);
  t.deepEqual([...(await crawl.memories(connectorId, [page(1), page(2)])).keys()], [page(1)]);
  await crawl.end(connectorId, runId);
  t.is(await crawl.remaining(connectorId, runId), 0);
  t.is((await crawl.failures(connectorId, runId)).length, 2, 'failures outlive the crawl, for its status');
});
