/** Help-centre articles and categories, as stored and as the articles API shows them. */

export const articleChannels = ['HELP_CENTER', 'WIDGET', 'PARTNER_PORTAL', 'INTERNAL', 'API', 'ALL'] as const;
export type ArticleChannel = (typeof articleChannels)[number];
/** The channels a list can be filtered by (`ALL` in a filter means no filter). */
export const concreteChannels = ['HELP_CENTER', 'WIDGET', 'PARTNER_PORTAL', 'INTERNAL', 'API'] as const;

export const articleStatuses = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;
export type ArticleStatus = (typeof articleStatuses)[number];

export const articleVisibilities = ['PUBLIC', 'INTERNAL'] as const;
export type ArticleVisibility = (typeof articleVisibilities)[number];

export interface EntryPoint {
  id: string;
  question: string;
  snippet: string;
  isPrimary: boolean;
  tags: string[];
}

export interface Category {
  id: string;
  knowledgeBaseId: string;
  name: string;
  slug: string;
  parentId: string | null;
  description: string | null;
  icon: string | null;
  createdAt: string;
}

/** An article as authored; only `PUBLISHED` and `PUBLIC` ones exist for the public articles API. */
export interface Article {
  id: string;
  tenantId: string;
  knowledgeBaseId: string;
  slug: string;
  title: string;
  body: string;
  excerpt: string;
  imageUrl: string | null;
  categoryId: string | null;
  channels: ArticleChannel[];
  featured: boolean;
  status: ArticleStatus;
  visibility: ArticleVisibility;
  entryPoints: EntryPoint[];
  readingTimeMinutes: number;
  /** Set on the first move to PUBLISHED, kept afterwards. */
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The fields an author sends (create: title and body required; update: any). */
export interface ArticleInput {
  title?: string;
  body?: string;
  slug?: string;
  excerpt?: string;
  imageUrl?: string | null;
  categoryId?: string | null;
  channels?: ArticleChannel[];
  featured?: boolean;
  status?: ArticleStatus;
  visibility?: ArticleVisibility;
  entryPoints?: Array<{ question: string; snippet?: string; isPrimary?: boolean; tags?: string[] }>;
}

export interface Helpfulness {
  helpfulCount: number;
  notHelpfulCount: number;
}

/** An article the public API may show. */
export function isPublic(article: Pick<Article, 'status' | 'visibility'>): boolean {
  return article.status === 'PUBLISHED' && article.visibility === 'PUBLIC';
}

/** Whether an article shows on `channel` (a concrete channel; `ALL` or none applies no filter). */
export function isOnChannel(article: Pick<Article, 'channels'>, channel: string | undefined): boolean {
  return (
    !channel || channel === 'ALL' || article.channels.includes('ALL') || article.channels.includes(channel as ArticleChannel)
  );
}

/** The integration and origin under which published articles feed the knowledge base. */
export const helpCenterIntegrationId = 'help-center';
