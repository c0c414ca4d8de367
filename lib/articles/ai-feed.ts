import type { IngestItem, IngestionClient } from '#knowledge/ingestion-client.js';
import { helpCenterIntegrationId, isPublic, type Article } from './types.js';

export interface ArticleFeedDeps {
  ingestion: Pick<IngestionClient, 'acceptOne' | 'remove'>;
  /** Where a reader finds the article: the URL the AI cites. */
  articleUrl: (article: Article) => string;
}

/**
 * Keeps the knowledge base's copy of the help centre current: a published, public article is an
 * `ARTICLE` source of its knowledge base (integration and origin `help-center`, external id the
 * article's id), so the AI answers from it and cites it; one that stops being published and public
 * (unpublished, archived, made internal, deleted) is removed. Both go through the item's ingestion
 * workflow, so they take turns with each other.
 */
export function createArticleFeed(deps: ArticleFeedDeps) {
  /** A delete operation for the article's item, with no cleanup to answer. */
  const removeFromKnowledge = (article: Article) =>
    deps.ingestion.remove(
      { tenantId: article.tenantId, integrationId: helpCenterIntegrationId, externalId: article.id },
      {
        knowledgeBaseId: article.knowledgeBaseId,
        sourceOrigin: helpCenterIntegrationId,
        sourceType: 'ARTICLE',
        lane: 'interactive',
      },
    );

  return {
    /**
     * Call after each change with the article as it was and as it is (`undefined`: not there). A
     * public article is sent on every call (its workflow applies the latest version), so repeating a
     * call repairs one that failed. Likewise a removal is sent for every change (or deletion) of an
     * article that was ever published and is not public now (removing twice is harmless), so
     * repeating the request that ended its publication repairs a removal that failed.
     */
    async syncArticle(before: Article | undefined, after: Article | undefined): Promise<void> {
      if (after && isPublic(after)) {
        await deps.ingestion.acceptOne(
          after.tenantId,
          after.knowledgeBaseId,
          articleItem(after, deps.articleUrl(after)),
          'interactive',
        );
        return;
      }
      const last = after ?? before;
      if (before && (isPublic(before) || last!.publishedAt)) await removeFromKnowledge(last!);
    },
  };
}

export type ArticleFeed = ReturnType<typeof createArticleFeed>;

/**
 * The ingestion item of a public article. `sourceData.updatedAt` tells which write of the article
 * the source holds: search matches the article on its own text until the source is of its latest
 * write (`article-search.ts`).
 */
export function articleItem(article: Article, url: string): IngestItem {
  return {
    integrationId: helpCenterIntegrationId,
    sourceType: 'ARTICLE',
    externalId: article.id,
    sourceOrigin: helpCenterIntegrationId,
    data: {
      title: article.title,
      content: articleContent(article),
      url,
      metadata: {
        slug: article.slug,
        categoryId: article.categoryId,
        channels: article.channels,
        featured: article.featured,
      },
      sourceData: {
        excerpt: article.excerpt,
        readingTimeMinutes: article.readingTimeMinutes,
        publishedAt: article.publishedAt,
        updatedAt: article.updatedAt,
      },
    },
  };
}

/** The text the knowledge base holds of an article besides its title: the excerpt (when there is one), a blank line, the body. */
export function articleContent(article: Pick<Article, 'excerpt' | 'body'>): string {
  return article.excerpt ? `${article.excerpt}\n\n${article.body}` : article.body;
}
