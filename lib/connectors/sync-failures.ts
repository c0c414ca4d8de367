import { BatchIngestionError, IngestionApiError } from '#connector-sdk/index.js';
import { CmsApiError } from './cms/cms-api.js';
import { ShopApiError } from './shop/shop-api.js';

/** Statuses of the ingestion API that no retry changes: the key, the knowledge base or an item is wrong. */
const permanentStatuses = new Set([400, 401, 403, 404, 413]);

/**
 * The code of a connector step's failure that retrying cannot fix (undefined for any other): the
 * shop or site refused the credentials or the request, the ingestion API refused the key or an item,
 * the connector is gone, or a rule of the run (an empty source, too many pages) stopped it.
 */
export function permanentCode(error: unknown): string | undefined {
  if (error instanceof ShopApiError || error instanceof CmsApiError) return error.retryable ? undefined : `source_${error.code}`;
  if (error instanceof IngestionApiError) return permanentStatuses.has(error.status) ? `ingestion_${error.code}` : undefined;
  if (error instanceof BatchIngestionError) {
    const codes = error.failures.map((failure) => permanentCode(failure.error));
    return codes.find((code) => code !== undefined);
  }
  if (error instanceof ConnectorGoneError) return 'connector_removed';
  if (error instanceof EmptySourceError) return 'empty_source';
  if (error instanceof TooManyPagesError) return 'too_many_pages';
  if (error instanceof CrawlRefusedError) return error.code;
  return undefined;
}

/** The connector was removed while a sync or webhook of it was under way. */
export class ConnectorGoneError extends Error {
  constructor(connectorId: string) {
    super(`Connector ${connectorId} no longer exists.`);
    this.name = 'ConnectorGoneError';
  }
}

/** A full sync found nothing although the last one kept items: cleanup is refused (see `finishFullRun`). */
export class EmptySourceError extends Error {
  constructor() {
    super('The source listed no items although the last sync kept some; nothing was deleted. Check the source and sync again.');
    this.name = 'EmptySourceError';
  }
}

/**
 * A run reached CONNECTOR_MAX_PAGES_PER_RUN: a source claiming endless pages (a hostile page count, a
 * `next` link that never ends) fails the run rather than syncing forever. Nothing was cleaned up.
 */
export class TooManyPagesError extends Error {
  constructor(maxPages: number) {
    super(
      `The source listed more than ${maxPages} pages, the most one sync reads; the sync stopped and nothing was deleted. ` +
        'Check the source, or use larger pages.',
    );
    this.name = 'TooManyPagesError';
  }
}

/** Refuses to read another page once a run has read `maxPages` (checked before the request is made). */
export function checkPageCap(pagesRead: number | undefined, maxPages: number): void {
  if ((pagesRead ?? 0) >= maxPages) throw new TooManyPagesError(maxPages);
}

/**
 * A website crawl that must not go on, or must not clean up: the site's robots.txt could not be read
 * (`robots_unreachable`: RFC 9309 says crawl nothing then), the site answered no page at all
 * (`site_unreachable`: an outage), or far fewer pages than the last crawl kept (`site_shrank`: a login
 * wall, a broken deploy). Nothing is deleted; the message says what to check.
 */
export class CrawlRefusedError extends Error {
  constructor(
    readonly code: 'robots_unreachable' | 'site_unreachable' | 'site_shrank',
    message: string,
  ) {
    super(message);
    this.name = 'CrawlRefusedError';
  }
}
