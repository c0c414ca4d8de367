import { AdminApiError, type ApiClient } from '#cli/admin-client.js';
import { helpCenterIntegrationId } from '#articles/types.js';
import { jobIdOf } from '#workflows/ids.js';
import { poll } from '#platform/poll.js';

/** An article's place in the wait: its slug, and its id when the articles interface shows it. */
export interface WaitedArticle {
  slug: string;
  id?: string;
}

export interface IngestionProgress {
  /** Articles the AI answers from now. */
  answerable: number;
  /** Still queued or being processed when the wait ended. */
  pending: number;
  /** Slugs whose ingestion failed or left nothing to answer from, with the reason. */
  failed: Array<{ slug: string; message: string }>;
}

const answerableStatuses = new Set(['searchable', 'skipped', 'metadata_updated']);
const finalStatuses = new Set([...answerableStatuses, 'failed', 'deleted', 'missing']);

/**
 * Waits until the ingestion job of each seeded article is over (at most `timeoutMs`), then says how
 * many the AI answers from. Unchanged articles were ingested by an earlier start and answer at once.
 * Jobs are read one at a time, the next once the one before is over (ingestion takes them in about
 * the order they came), so the wait spends little of the API key's budget of requests a minute.
 */
export async function waitForArticleIngestion(
  tenant: ApiClient,
  articles: WaitedArticle[],
  { timeoutMs, intervalMs = 500 }: { timeoutMs: number; intervalMs?: number },
): Promise<IngestionProgress> {
  const waiting = articles.filter((article): article is WaitedArticle & { id: string } => article.id !== undefined);
  const over: Job[] = [];
  const readUntilOneIsRunning = async () => {
    while (waiting.length > 0) {
      const job = await readJob(tenant, waiting[0]!.slug, waiting[0]!.id);
      if (!finalStatuses.has(job.status)) return false;
      over.push(job);
      waiting.shift();
    }
    return true;
  };
  await poll(readUntilOneIsRunning, Boolean, { timeoutMs, intervalMs });
  return {
    answerable: over.filter((job) => answerableStatuses.has(job.status)).length,
    pending: waiting.length,
    failed: over
      .filter((job) => !answerableStatuses.has(job.status))
      .map((job) => ({ slug: job.slug, message: job.error?.message ?? `its ingestion job is ${job.status}` })),
  };
}

interface Job {
  slug: string;
  status: string;
  error?: { message: string };
}

async function readJob(tenant: ApiClient, slug: string, articleId: string): Promise<Job> {
  const jobId = jobIdOf({ integrationId: helpCenterIntegrationId, externalId: articleId });
  try {
    const job = await tenant.request<{ status: string; error?: { message: string } }>('GET', `/ingest/jobs/${jobId}`);
    return { slug, ...job };
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 404) return { slug, status: 'missing' };
    throw error;
  }
}
