import test from 'ava';
import { AdminApiError, type ApiClient } from '#cli/admin-client.js';
import { waitForArticleIngestion } from './article-ingestion-wait.js';

/** The ingestion jobs as the API would answer them: each job's statuses in turn, the last one repeated. */
function jobsApi(statuses: Record<string, Array<string | number>>) {
  const asked: string[] = [];
  const client: ApiClient = {
    async request<T>(method: string, path: string) {
      asked.push(path);
      const id = path.replace('/ingest/jobs/help-center-', '');
      const next = statuses[id]!.length > 1 ? statuses[id]!.shift()! : statuses[id]![0]!;
      if (typeof next === 'number') throw new AdminApiError(next, { error: { code: 'not_found', message: 'No job.' } });
      return { status: next, ...(next === 'failed' ? { error: { message: 'too long' } } : {}) } as T;
    },
  };
  return { client, asked };
}

test('the wait reads one job at a time, the next once the one before is over, and counts what the AI answers from', async (t) => {
  const { client, asked } = jobsApi({
    a: ['queued', 'processing', 'searchable'],
    b: ['searchable'],
    c: ['failed'],
    d: [404],
  });
  const articles = [
    { slug: 'a', id: 'a', outcome: 'created' as const },
    { slug: 'held', outcome: 'held' as const },
    { slug: 'b', id: 'b', outcome: 'unchanged' as const },
    { slug: 'c', id: 'c', outcome: 'updated' as const },
    { slug: 'd', id: 'd', outcome: 'unchanged' as const },
  ];
  const progress = await waitForArticleIngestion(client, articles, { timeoutMs: 10_000, intervalMs: 1 });
  t.deepEqual(progress, {
    answerable: 2,
    pending: 0,
    failed: [
      { slug: 'c', message: 'too long' },
      { slug: 'd', message: 'its ingestion job is missing' },
    ],
  });
  t.deepEqual(
    asked.map((path) => path.replace('/ingest/jobs/help-center-', '')),
    ['a', 'a', 'a', 'b', 'c', 'd'],
  );
});

test('a wait that ends first says how many are still being ingested', async (t) => {
  const { client } = jobsApi({ a: ['searchable'], b: ['processing'], c: ['queued'] });
  const articles = ['a', 'b', 'c'].map((id) => ({ slug: id, id, outcome: 'created' as const }));
  t.deepEqual(await waitForArticleIngestion(client, articles, { timeoutMs: 0, intervalMs: 1 }), {
    answerable: 1,
    pending: 2,
    failed: [],
  });
});
