import { AdminApiError, type ApiClient } from '#cli/admin-client.js';
import { waitForArticleIngestion, type IngestionProgress } from './article-ingestion-wait.js';
import type { DemoArticle, DemoContent } from './demo-content.js';

/**
 * Publishes the demo help centre (`demo-content.ts`) into a knowledge base through the API, as an
 * author would: categories and articles by the admin routes, what is already there read from the
 * published articles interface. Repeating it changes nothing; an article whose file changed is
 * updated. The AI answers from every published article once its ingestion is over
 * (`waitForArticleIngestion`).
 */
export interface SeedClients {
  /** The admin token: writes categories and articles. */
  admin: ApiClient;
  /** An API key of the tenant (`articles:read`, `iq:import`): reads what is published and the ingestion jobs. */
  tenant: ApiClient;
}

/**
 * `held`: the slug belongs to an article of the knowledge base that is not published (someone
 * unpublished or archived it), which is left as it is.
 */
export type SeedOutcome = 'created' | 'updated' | 'unchanged' | 'held';

export interface SeededArticle {
  slug: string;
  outcome: SeedOutcome;
  /** Absent when `held` (an unpublished article is not visible to the articles interface). */
  id?: string;
}

/** The fields of an article the admin routes take, as the demo content defines them. */
export interface ArticleRequest {
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  categoryId: string | null;
  status: 'PUBLISHED';
  visibility: 'PUBLIC';
  entryPoints: Array<{ question: string; snippet: string; isPrimary: boolean; tags: string[] }>;
}

/** What the published articles interface shows of an article (the fields the demo content sets). */
export interface PublishedArticle {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  category: { id: string } | null;
  entryPoints: Array<{ question: string; snippet: string; isPrimary: boolean; tags: string[] }>;
}

interface CategoryNode {
  id: string;
  slug: string;
  children: CategoryNode[];
}

export interface PublishedHelpCentre {
  articles: SeededArticle[];
  ingestion: IngestionProgress;
}

/** What `npm start` does: seeds the help centre, then waits (at most `timeoutMs`) until the AI answers from it. */
export async function publishDemoHelpCentre(
  clients: SeedClients,
  knowledgeBaseId: string,
  content: DemoContent,
  { timeoutMs }: { timeoutMs: number },
): Promise<PublishedHelpCentre> {
  const articles = await seedDemoHelpCentre(clients, knowledgeBaseId, content);
  return { articles, ingestion: await waitForArticleIngestion(clients.tenant, articles, { timeoutMs }) };
}

/** One line for `npm start`'s summary: how many articles, what this start changed, what the AI cannot answer from yet. */
export function describeSeeding({ articles, ingestion }: PublishedHelpCentre): string {
  const count = (outcome: SeedOutcome) => articles.filter((article) => article.outcome === outcome).length;
  const changes = [count('created') && `${count('created')} new`, count('updated') && `${count('updated')} updated`].filter(
    Boolean,
  );
  const published = articles.length - count('held');
  const parts = [
    `${published} articles${changes.length ? ` (${changes.join(', ')})` : ''}`,
    ingestion.answerable === published ? 'all answerable' : `${ingestion.answerable} answerable so far`,
  ];
  if (ingestion.pending > 0) parts.push(`${ingestion.pending} still being ingested`);
  if (ingestion.failed.length > 0)
    parts.push(`not answerable: ${ingestion.failed.map(({ slug, message }) => `${slug} (${message})`).join(', ')}`);
  const held = articles.filter((article) => article.outcome === 'held').map((article) => article.slug);
  if (held.length > 0) parts.push(`left alone, unpublished in the knowledge base: ${held.join(', ')}`);
  return parts.join('; ');
}

/** Creates the categories and articles that are missing and changes those that differ from their files, one at a time. */
export async function seedDemoHelpCentre(
  clients: SeedClients,
  knowledgeBaseId: string,
  content: DemoContent,
): Promise<SeededArticle[]> {
  const categoryIds = await ensureCategories(clients, knowledgeBaseId, content);
  const published = await listPublished(clients.tenant, knowledgeBaseId);
  const seeded: SeededArticle[] = [];
  for (const article of content.articles) {
    const request = articleRequest(article, categoryIds);
    const current = published.get(article.slug);
    if (!current) seeded.push(await createArticle(clients.admin, knowledgeBaseId, request));
    else if (matchesPublished(request, current)) seeded.push({ slug: article.slug, id: current.id, outcome: 'unchanged' });
    else {
      const { slug, ...fields } = request;
      await clients.admin.request('PATCH', `/admin/knowledge-bases/${knowledgeBaseId}/articles/${current.id}`, fields);
      seeded.push({ slug, id: current.id, outcome: 'updated' });
    }
  }
  return seeded;
}

/** The request that creates (or brings up to date) the article: published, public, its questions the entry points. */
export function articleRequest(article: DemoArticle, categoryIds: ReadonlyMap<string, string>): ArticleRequest {
  return {
    slug: article.slug,
    title: article.title,
    excerpt: article.excerpt,
    body: article.body,
    categoryId: categoryIds.get(article.category) ?? null,
    status: 'PUBLISHED',
    visibility: 'PUBLIC',
    entryPoints: article.questions.map((question, i) => ({ question, snippet: '', isPrimary: i === 0, tags: [] })),
  };
}

/** The published article already says what the request says: sending it would change nothing. */
export function matchesPublished(request: ArticleRequest, published: PublishedArticle): boolean {
  const entryPoints = (list: ArticleRequest['entryPoints']) =>
    JSON.stringify(list.map(({ question, snippet, isPrimary, tags }) => [question, snippet, isPrimary, tags]));
  return (
    published.title === request.title &&
    published.excerpt === request.excerpt &&
    published.body === request.body &&
    (published.category?.id ?? null) === request.categoryId &&
    entryPoints(published.entryPoints) === entryPoints(request.entryPoints)
  );
}

/** Every category of a tree, depth first. */
export function flattenCategories<T extends { children: T[] }>(nodes: T[]): T[] {
  return nodes.flatMap((node) => [node, ...flattenCategories(node.children)]);
}

/** Each category of the content by slug: found in the knowledge base, or created there. */
async function ensureCategories(
  clients: SeedClients,
  knowledgeBaseId: string,
  content: DemoContent,
): Promise<Map<string, string>> {
  const tree = await clients.tenant.request<CategoryNode[]>(
    'GET',
    `/public/knowledge-bases/${knowledgeBaseId}/articles/categories`,
  );
  const ids = new Map(flattenCategories(tree).map((node) => [node.slug, node.id]));
  for (const { slug, name, description } of content.categories) {
    if (ids.has(slug)) continue;
    const created = await clients.admin.request<{ id: string }>('POST', `/admin/knowledge-bases/${knowledgeBaseId}/categories`, {
      name,
      slug,
      description,
    });
    ids.set(slug, created.id);
  }
  return ids;
}

const pageSize = 100;

/** The knowledge base's published articles by slug, every page of the list. */
async function listPublished(tenant: ApiClient, knowledgeBaseId: string): Promise<Map<string, PublishedArticle>> {
  const bySlug = new Map<string, PublishedArticle>();
  for (let page = 1; ; page++) {
    const list = await tenant.request<{ articles: PublishedArticle[]; totalPages: number }>(
      'GET',
      `/public/knowledge-bases/${knowledgeBaseId}/articles?page=${page}&pageSize=${pageSize}`,
    );
    for (const article of list.articles) bySlug.set(article.slug, article);
    if (page >= list.totalPages) return bySlug;
  }
}

async function createArticle(admin: ApiClient, knowledgeBaseId: string, request: ArticleRequest): Promise<SeededArticle> {
  try {
    const created = await admin.request<{ id: string }>('POST', `/admin/knowledge-bases/${knowledgeBaseId}/articles`, request);
    return { slug: request.slug, id: created.id, outcome: 'created' };
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 409) return { slug: request.slug, outcome: 'held' };
    throw error;
  }
}
