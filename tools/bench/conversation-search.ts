/**
 * `npm run bench:conversation-search [-- --conversations 10000 --messages 10 --requests 300 --concurrency 4 --fresh 50]`:
 * the agents' conversation search (docs/agent-inbox.md, "Conversation search") on a stack of its own
 * (API and worker processes, Weaviate, Temporal, Redis).
 *  - writes `conversations` conversations of `messages` messages each straight into Redis (records and
 *    transcripts as the service writes them, statuses, agents, teams and scores of a realistic mix) and
 *    marks each changed, as recording a message does; the worker's indexer takes them into Weaviate
 *    (the time it took is printed);
 *  - measures GET /agent/search with common, rarer and two-word queries, without and with filters,
 *    `requests` requests each at `concurrency` in flight; beside them the same run's baselines: a
 *    plain BM25 query on the same collection (no filters, straight to Weaviate) and `/live`;
 *  - measures freshness: `fresh` times, a message with a word of its own appended to a conversation
 *    (and marked, as the conversation activity does), then the search asked every 20 ms until it
 *    finds it: the time from the append to the first answer that has it.
 */
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { conversationKeys } from '#conversations/redis-keys.js';
import { createSearchChanges } from '#conversations/search/changes.js';
import { createConversationSearchIndex } from '#conversations/search/search-index.js';
import type { ChatMessage } from '#conversations/chat-message.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import type { RedisClient } from '#platform/redis.js';
import { percentile, round, startMeasuredStack } from './measured-stack.js';

const { values: args } = parseArgs({
  options: {
    conversations: { type: 'string', default: '10000' },
    messages: { type: 'string', default: '10' },
    requests: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '4' },
    fresh: { type: 'string', default: '50' },
  },
});
const conversationCount = Number(args.conversations);
const messagesEach = Number(args.messages);
const requestCount = Number(args.requests);
const concurrency = Number(args.concurrency);
const freshCount = Number(args.fresh);

// A seeded generator: the same corpus every run.
let seed = 20_270_301;
const random = () => {
  seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
  return seed / 2 ** 32;
};
const pickOf = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

/** Support words, a few very common and most rare (Zipf-like), and made-up product names. */
const topics = [
  'refund',
  'delivery',
  'parcel',
  'invoice',
  'password',
  'warranty',
  'discount',
  'subscription',
  'exchange',
  'battery',
];
const common = ['order', 'please', 'help', 'thanks', 'account', 'item', 'received', 'email', 'today', 'still', 'week', 'number'];
const products = Array.from({ length: 3000 }, (_, i) => `prod${(i * 7919).toString(36)}`);
const word = () => {
  const r = random();
  return r < 0.35 ? pickOf(common) : r < 0.55 ? pickOf(topics) : products[Math.floor(random() ** 3 * products.length)]!;
};
const sentence = (length: number) => Array.from({ length }, word).join(' ');

const stack = await startMeasuredStack('bench-conversation-search');
try {
  await stack.startApps();
  const tenant = await stack.admin.request<{ id: string }>('POST', '/admin/tenants', { name: 'Bench conversation search' });
  const operator = await stack.admin.request<{ id: string; knowledgeBaseId: string }>(
    'POST',
    `/admin/tenants/${tenant.id}/operators`,
    {
      name: 'Northwind',
    },
  );
  const user = await stack.admin.request<{ id: string; token: string }>('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'Bench agent',
    email: 'bench-search@example.com',
    role: 'agent',
  });
  const headers = { authorization: `Bearer ${user.token}` };
  const redis = stack.redis as unknown as RedisClient;
  const keys = conversationKeys(stack.prefix);
  const changes = createSearchChanges(redis, stack.prefix);
  const agents = Array.from({ length: 20 }, (_, i) => ({ id: i === 0 ? user.id : `agent-${i}`, name: `Agent ${i}` }));
  const teams = ['team-billing', 'team-shipping', 'team-tech'];

  // ---- The corpus, written as the service writes it, each conversation marked changed.
  const writeStarted = performance.now();
  const started = Date.now() - 90 * 86_400_000;
  const ids: string[] = [];
  const write = pLimit(32);
  await Promise.all(
    Array.from({ length: conversationCount }, (_, n) =>
      write(async () => {
        const conversationId = crypto.randomUUID();
        ids.push(conversationId);
        const createdAt = started + Math.floor((n / conversationCount) * 90 * 86_400_000);
        const status = pickOf(['closed', 'closed', 'closed', 'ai', 'waiting_for_agent', 'agent'] as const);
        const agent = status === 'agent' || status === 'closed' ? pickOf(agents) : undefined;
        const messages: ChatMessage[] = Array.from({ length: messagesEach }, (_, i) => {
          const author = i % 2 === 0 ? 'visitor' : agent && i > messagesEach / 2 ? 'agent' : 'ai';
          return {
            id: `m${i}`,
            author,
            text: sentence(8 + Math.floor(random() * 16)),
            createdAt: new Date(createdAt + i * 60_000).toISOString(),
            aiGenerated: author === 'ai',
            ...(author === 'agent' ? { agent: { name: agent!.name } } : {}),
          };
        });
        const updatedAt = messages.at(-1)!.createdAt;
        const writes = redis
          .multi()
          .hSet(keys.record(conversationId), {
            tenantId: tenant.id,
            operatorId: operator.id,
            knowledgeBaseId: operator.knowledgeBaseId,
            channel: random() < 0.7 ? 'widget' : 'messaging',
            locale: 'en',
            status,
            visitorTokenHash: '',
            contact: JSON.stringify({ name: `Customer ${n}` }),
            agentName: agent?.name ?? '',
            ...(agent ? { agentId: agent.id, assigneeId: agent.id } : {}),
            teamId: pickOf(teams),
            createdAt: new Date(createdAt).toISOString(),
            updatedAt,
          })
          .zAdd(keys.ofTenant(tenant.id), { score: createdAt, value: conversationId })
          .rPush(
            keys.transcript(conversationId),
            messages.map((message) => JSON.stringify(message)),
          );
        // The visitor's score (lib/insights/ratings.ts keeps it beside the record).
        if (status === 'closed' && random() < 0.3)
          writes.set(
            `${keys.record(conversationId)}:satisfaction`,
            JSON.stringify({ score: 1 + Math.floor(random() * 5), ratedAt: updatedAt }),
          );
        await writes.exec();
        await changes.markChanged(tenant.id, conversationId);
      }),
    ),
  );
  const writeSeconds = (performance.now() - writeStarted) / 1000;
  const indexStarted = performance.now();
  for (;;) {
    const pending = await changes.pending();
    if (pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const indexedAt = performance.now();

  // ---- Query latency through the API, and the baselines.
  const measure = async (label: string, once: () => Promise<unknown>, { count = requestCount, parallel = concurrency } = {}) => {
    const inFlight = pLimit(parallel);
    const timed = async () => {
      const at = performance.now();
      await once();
      return performance.now() - at;
    };
    await Promise.all(Array.from({ length: 20 }, () => inFlight(timed)));
    const at = performance.now();
    const ms = (await Promise.all(Array.from({ length: count }, () => inFlight(timed)))).sort((a, b) => a - b);
    const seconds = (performance.now() - at) / 1000;
    return [
      label,
      {
        'p50 ms': round(percentile(ms, 0.5)),
        'p95 ms': round(percentile(ms, 0.95)),
        'p99 ms': round(percentile(ms, 0.99)),
        'requests/s': round(count / seconds),
      },
    ] as const;
  };
  const hits: number[] = [];
  const searchFor = (queries: string[]) => {
    let i = 0;
    return async () => {
      const query = queries[i++ % queries.length]!;
      const response = await fetch(`${stack.apiUrl}/agent/search?${query}`, { headers });
      const body = (await response.json()) as { results?: unknown[] };
      if (response.status !== 200) throw new Error(`${query} answered ${response.status}: ${JSON.stringify(body)}`);
      hits.push(body.results!.length);
    };
  };
  const rare = products.slice(0, 200).map((p) => `q=${p}`);
  const topical = topics.map((topic) => `q=${topic}`);
  const twoWords = topics.map((topic) => `q=${topic}%20${pickOf(common)}`);
  const filtered = topics.flatMap((topic) => [
    `q=${topic}&status=closed`,
    `q=${topic}&channel=messaging&teamId=team-billing`,
    `q=${topic}&agentId=${user.id}`,
    `q=${topic}&rating=5`,
    `q=${topic}&from=${new Date(started + 30 * 86_400_000).toISOString()}&to=${new Date(started + 60 * 86_400_000).toISOString()}`,
  ]);
  const weaviate = await createWeaviateClient({
    url: stack.env.WEAVIATE_URL!,
    grpcPort: Number(stack.env.WEAVIATE_GRPC_PORT),
  });
  const collection = (await createConversationSearchIndex(weaviate).collection()).withTenant(tenant.id);
  let b = 0;
  const rows = [
    await measure('baseline: GET /live', async () => (await fetch(`${stack.apiUrl}/live`)).arrayBuffer()),
    await measure('baseline: plain BM25 in Weaviate (a topic word, 20 ids, no filters, no API)', () =>
      collection.query.bm25(topics[b++ % topics.length]!, { limit: 20, returnProperties: ['conversationId'] }),
    ),
    await measure('GET /agent/search, a topic word (thousands match)', searchFor(topical)),
    await measure('GET /agent/search, a rare word', searchFor(rare)),
    await measure('GET /agent/search, two words', searchFor(twoWords)),
    await measure('GET /agent/search, a topic word and filters', searchFor(filtered)),
    await measure('GET /agent/search, a topic word, one at a time', searchFor(topical), { count: 100, parallel: 1 }),
  ];
  // The next pages: a cursor reads the kept results.
  const first = (await (await fetch(`${stack.apiUrl}/agent/search?q=refund`, { headers })).json()) as { nextCursor: string };
  rows.push(
    await measure('GET /agent/search, the next page (cursor)', async () => {
      const response = await fetch(`${stack.apiUrl}/agent/search?q=refund&cursor=${first.nextCursor}`, { headers });
      if (response.status !== 200) throw new Error(`the next page answered ${response.status}`);
      await response.arrayBuffer();
    }),
  );
  await weaviate.close();

  // ---- Freshness: a message appended, then searched for until found.
  const fresh: number[] = [];
  for (let i = 0; i < freshCount; i++) {
    const conversationId = ids[Math.floor(random() * ids.length)]!;
    const marker = `fresh${i}z${Math.floor(random() * 1e9).toString(36)}`;
    const message: ChatMessage = {
      id: `fresh-${i}`,
      author: 'visitor',
      text: `about my ${marker} please`,
      createdAt: new Date().toISOString(),
      aiGenerated: false,
    };
    const at = performance.now();
    await redis.rPush(keys.transcript(conversationId), JSON.stringify(message));
    await changes.markChanged(tenant.id, conversationId);
    for (;;) {
      const response = await fetch(`${stack.apiUrl}/agent/search?q=${marker}`, { headers });
      const body = (await response.json()) as { results: unknown[] };
      if (body.results.length === 1) break;
      if (performance.now() - at > 30_000) throw new Error(`${marker} not searchable after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    fresh.push(performance.now() - at);
  }
  fresh.sort((x, y) => x - y);

  console.log(
    `\nbench:conversation-search (${conversationCount} conversations × ${messagesEach} messages = ${conversationCount * messagesEach} messages, ` +
      `${requestCount} requests per row at ${concurrency} in flight, profile ${stack.profile})`,
  );
  console.log(
    `written to Redis in ${round(writeSeconds)} s (the worker's indexer taking them in meanwhile); all indexed ` +
      `${round((indexedAt - writeStarted) / 1000)} s after the first write, ${round((indexedAt - indexStarted) / 1000)} s after the last; ` +
      `median hits per query ${percentile(
        [...hits].sort((x, y) => x - y),
        0.5,
      )} (a page: at most 20)`,
  );
  console.table(Object.fromEntries(rows));
  console.log(
    `a new message searchable after (append → first search that finds it, polled every 20 ms, ${freshCount} messages): ` +
      `p50 ${round(fresh[Math.floor(fresh.length / 2)]!)} ms, p95 ${round(percentile(fresh, 0.95))} ms, max ${round(fresh.at(-1)!)} ms`,
  );
} finally {
  await stack.stop();
}
