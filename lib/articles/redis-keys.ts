/** The Redis key names of the article store: records, slug indexes, public indexes, counters and entry points. */

export function articleKeys(prefix: string) {
  const root = `${prefix}:articles`;
  const kb = (knowledgeBaseId: string) => `${root}:kb:${knowledgeBaseId}`;
  return {
    article: (id: string) => `${root}:article:${id}`,
    /** views, helpful, notHelpful */
    counters: (id: string) => `${root}:article:${id}:counters`,
    category: (id: string) => `${root}:category:${id}`,
    /** The entry point (JSON), its article and knowledge base, and its matched and clicked counts. */
    entryPoint: (id: string) => `${root}:entry-point:${id}`,
    articleSlugs: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:article-slugs`,
    categorySlugs: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:category-slugs`,
    /** A list: creation order. */
    categories: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:categories`,
    publicAll: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:public`,
    publicChannel: (knowledgeBaseId: string, channel: string) => `${kb(knowledgeBaseId)}:public:channel:${channel}`,
    publicCategory: (knowledgeBaseId: string, categoryId: string) => `${kb(knowledgeBaseId)}:public:category:${categoryId}`,
    publicFeatured: (knowledgeBaseId: string, featured: boolean) =>
      `${kb(knowledgeBaseId)}:public:${featured ? 'featured' : 'not-featured'}`,
    /** A hash: entry point id → `{entryPoint, articleId}` of the public articles. */
    publicEntryPoints: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:public-entry-points`,
    popular: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:popular-entry-points`,
    entryPointsVersion: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:entry-points-version`,
    /** Bumped by every change a public list page can show (articles, categories, helpfulness). */
    listVersion: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:list-version`,
    /**
     * A sorted set: the public articles whose latest write the knowledge base's passages may not
     * hold yet (search matches them on their own text), scored by the revision written.
     */
    searchPending: (knowledgeBaseId: string) => `${kb(knowledgeBaseId)}:search-pending`,
  };
}

export type ArticleKeys = ReturnType<typeof articleKeys>;
