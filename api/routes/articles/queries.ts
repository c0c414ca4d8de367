import { LRUCache } from 'lru-cache';
import type { ArticleStore } from '#articles/store.js';
import type { Tenancy } from '#tenancy/index.js';
import { forbidden, invalidPayload } from '#api/errors.js';
import { ownedKnowledgeBase } from '#api/ownership.js';
import type { Middleware } from 'koa';
import { requireApiKey } from '#api/middleware/api-key-auth.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import type { AuthenticatedState } from '#api/state.js';

/** Where the public articles routes live. */
export const articlesBase = '/public/knowledge-bases/{kbId}/articles';

/**
 * The knowledge base of the path, when the key's tenant owns it (404 unknown, 403 another tenant's).
 * A knowledge base never changes owner, so each resolver keeps the owners it has read: the public
 * read routes then spend no Redis round trip on it.
 */
export function createKnowledgeBaseResolver(tenancy: Pick<Tenancy, 'getKnowledgeBase'>) {
  const owners = new LRUCache<string, string>({ max: 10_000 });
  return async function knowledgeBaseOfPath(ctx: { state: AuthenticatedState; params: Record<string, string> }): Promise<string> {
    const knowledgeBaseId = ctx.params.kbId!;
    const tenantId = ctx.state.apiKey.tenantId;
    const owner = owners.get(knowledgeBaseId);
    if (owner === tenantId) return knowledgeBaseId;
    if (owner !== undefined) throw forbidden(`Knowledge base ${knowledgeBaseId} belongs to another tenant.`);
    const knowledgeBase = await ownedKnowledgeBase(tenancy, tenantId, knowledgeBaseId);
    owners.set(knowledgeBase.id, knowledgeBase.tenantId);
    return knowledgeBase.id;
  };
}

/**
 * The category a `categorySlug` or `categoryId` parameter names: its id, `null` for one that does
 * not exist in the knowledge base (it matches no article), `undefined` when neither is given.
 */
export async function categoryOfQuery(
  articles: Pick<ArticleStore, 'findCategoryBySlug' | 'getCategory'>,
  knowledgeBaseId: string,
  query: { categorySlug?: string; categoryId?: string },
): Promise<string | null | undefined> {
  if (query.categorySlug && query.categoryId)
    throw invalidPayload('Give categorySlug or categoryId, not both.', [
      { path: 'categoryId', message: 'conflicts with categorySlug' },
    ]);
  if (query.categorySlug) return (await articles.findCategoryBySlug(knowledgeBaseId, query.categorySlug))?.id ?? null;
  if (query.categoryId) {
    const category = await articles.getCategory(query.categoryId);
    return category?.knowledgeBaseId === knowledgeBaseId ? category.id : null;
  }
  return undefined;
}

/**
 * What every router of the public articles API starts from: its documentation defaults, the
 * `articles:read` key and the key's budget, the knowledge base of the path and the category filter.
 */
export function articlesRouterBase(deps: {
  tenancy: Tenancy;
  rateLimit: Middleware<AuthenticatedState>;
  articles: Pick<ArticleStore, 'findCategoryBySlug' | 'getCategory'>;
}) {
  const router = new DocumentedRouter<AuthenticatedState>({
    tags: ['Articles'],
    security: 'apiKey',
    scope: 'articles:read',
    errors: [401, 403, 404, 429, 503],
  });
  router.use(requireApiKey(deps.tenancy, 'articles:read'), deps.rateLimit);
  return {
    router,
    knowledgeBaseOf: createKnowledgeBaseResolver(deps.tenancy),
    categoryFilter: (knowledgeBaseId: string, query: { categorySlug?: string; categoryId?: string }) =>
      categoryOfQuery(deps.articles, knowledgeBaseId, query),
  };
}
