import type { ArticleStore } from '#articles/store.js';
import type { Tenancy } from '#tenancy/index.js';
import { invalidPayload } from './errors.js';
import { ownedKnowledgeBase } from './ownership.js';
import type { AuthenticatedState } from './state.js';

/** Where the public articles routes live. */
export const articlesBase = '/public/knowledge-bases/{kbId}/articles';

/** The knowledge base of the path, when the key's tenant owns it (404 unknown, 403 another tenant's). */
export async function knowledgeBaseOfPath(
  tenancy: Pick<Tenancy, 'getKnowledgeBase'>,
  ctx: { state: AuthenticatedState; params: Record<string, string> },
): Promise<string> {
  return (await ownedKnowledgeBase(tenancy, ctx.state.apiKey.tenantId, ctx.params.kbId!)).id;
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
