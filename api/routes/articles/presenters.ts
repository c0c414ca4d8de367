import type { Article, Category, EntryPoint, Helpfulness } from '#articles/types.js';

/** An entry point as every article answer shows it. */
export function presentEntryPoint({ id, question, snippet, isPrimary, tags }: EntryPoint) {
  return { id, question, snippet, isPrimary, tags };
}

/** Articles in the published interface's list-element shape, in the order given. */
export function presentPublishedArticles(articles: Article[], related: { categories: Category[]; helpfulness: Helpfulness[] }) {
  const categoryOf = new Map(related.categories.map((category) => [category.id, category]));
  return articles.map((article, i) => {
    const category = article.categoryId ? categoryOf.get(article.categoryId) : undefined;
    return {
      id: article.id,
      slug: article.slug,
      title: article.title,
      contentType: 'ARTICLE' as const,
      excerpt: article.excerpt,
      body: article.body,
      imageUrl: article.imageUrl,
      category: category ? { id: category.id, name: category.name, slug: category.slug } : null,
      entryPoints: article.entryPoints.map(presentEntryPoint),
      readingTimeMinutes: article.readingTimeMinutes,
      publishedAt: article.publishedAt!,
      updatedAt: article.updatedAt,
      helpfulness: related.helpfulness[i] ?? { helpfulCount: 0, notHelpfulCount: 0 },
    };
  });
}

export interface CategoryNode {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  articleCount: number;
  children: CategoryNode[];
}

/**
 * The categories as a tree, in creation order. A category's `articleCount` counts its own published
 * public articles and those of all its subcategories, as a help centre shows them.
 */
export function categoryTree(categories: Category[], ownCounts: Map<string, number>): CategoryNode[] {
  const nodes = new Map<string, CategoryNode>(
    categories.map((category) => [
      category.id,
      {
        id: category.id,
        name: category.name,
        slug: category.slug,
        description: category.description,
        icon: category.icon,
        articleCount: 0,
        children: [],
      },
    ]),
  );
  const roots: CategoryNode[] = [];
  for (const category of categories) {
    const node = nodes.get(category.id)!;
    const parent = category.parentId ? nodes.get(category.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const total = (node: CategoryNode): number =>
    (node.articleCount = (ownCounts.get(node.id) ?? 0) + node.children.reduce((sum, child) => sum + total(child), 0));
  roots.forEach(total);
  return roots;
}
