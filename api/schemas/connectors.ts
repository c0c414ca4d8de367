import { name, nullable, objectOf, secret, timestamp, uuid } from './common.js';
import { textPatterns } from './text-patterns.js';
import { fileStatuses, type FileStatus } from '#connectors/files/file-records.js';

const httpUrl = (description: string) =>
  ({ type: 'string', format: 'uri', pattern: textPatterns.sourceAddress.pattern, maxLength: 2048, description }) as const;

const schedule = {
  knowledgeBaseId: { ...uuid, description: "Where the items go; the tenant's default knowledge base when omitted" },
  syncEveryMinutes: { type: 'integer', minimum: 5, maximum: 10_080, description: 'How often the schedule starts a sync' },
} as const;

const shopSettings = {
  adminUrl: httpUrl("The shop's admin API root, e.g. `https://northwind.myshop.example` (paths are `/admin/api/{apiVersion}/…`)"),
  apiVersion: {
    type: 'string',
    pattern: textPatterns.yearMonthVersion.pattern,
    description: 'Admin API version, `YYYY-MM`',
    examples: ['2025-01'],
  },
  pageSize: {
    type: 'integer',
    minimum: 1,
    maximum: 250,
    description: 'Products per page; default 250, the most the admin API gives',
  },
} as const;

const cmsSettings = {
  siteUrl: httpUrl('The site root; its REST API is at `{siteUrl}/wp-json/wp/v2`'),
  username: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    description: 'User of the application password; for sites that require it',
  },
  pageSize: {
    type: 'integer',
    minimum: 1,
    maximum: 100,
    description: 'Entries per page; default 100, the most the REST API gives',
  },
} as const;

const pageAddress = (description: string) =>
  ({ type: 'string', format: 'uri', pattern: textPatterns.pageAddress.pattern, maxLength: 2048, description }) as const;
const pathPatterns = (description: string) =>
  ({
    type: 'array',
    maxItems: 50,
    items: { type: 'string', minLength: 1, maxLength: 200, pattern: textPatterns.pathPattern.pattern },
    description,
  }) as const;

/** What a website connector is, in its settings; bounds as `lib/connectors/website/` keeps them. */
const websiteSettings = {
  startUrls: {
    type: 'array',
    maxItems: 50,
    items: pageAddress('A page the crawl starts from'),
    description:
      'Pages the crawl starts from; their links are followed within the scope. With `sitemaps`, at least one address in all.',
  },
  sitemaps: {
    type: 'array',
    maxItems: 20,
    items: pageAddress('A sitemap or sitemap index (gzipped or not)'),
    description: 'Sitemaps (or sitemap indexes) whose pages the crawl starts from too',
  },
  include: pathPatterns(
    'Only pages whose path (and query) matches one of these, robots.txt style (`/docs/`, `/help/*.html$`); every page of the hosts when empty',
  ),
  exclude: pathPatterns('Pages whose path matches one of these are left out, whatever `include` says'),
  maxPages: { type: 'integer', minimum: 1, maximum: 10_000, description: 'Pages one crawl takes at most; default 10,000' },
  concurrency: { type: 'integer', minimum: 1, maximum: 4, description: 'Requests in flight to one host at most; default 2' },
  requestsPerSecond: {
    type: 'number',
    minimum: 0.1,
    maximum: 10,
    description: "Requests started per second to one host at most; default 2 (the site's robots.txt Crawl-delay may slow it)",
  },
} as const;

export const createWebsiteConnectorRequest = objectOf(
  {
    name,
    ...schedule,
    data: objectOf(websiteSettings, [
      'startUrls',
      'sitemaps',
      'include',
      'exclude',
      'maxPages',
      'concurrency',
      'requestsPerSecond',
    ]),
  },
  ['knowledgeBaseId', 'syncEveryMinutes'],
);

export const createFilesConnectorRequest = objectOf(
  { name, knowledgeBaseId: schedule.knowledgeBaseId },
  ['knowledgeBaseId'],
);

export const createShopConnectorRequest = objectOf(
  {
    name,
    ...schedule,
    data: objectOf(
      {
        ...shopSettings,
        accessToken: secret(1024, 'Admin API access token (read products); stored encrypted, never shown again'),
        webhookSecret: secret(
          1024,
          "The secret the shop signs webhooks with (the app's client secret); stored encrypted, never shown again",
        ),
      },
      ['pageSize'],
    ),
  },
  ['knowledgeBaseId', 'syncEveryMinutes'],
);

export const createCmsConnectorRequest = objectOf(
  {
    name,
    ...schedule,
    fullSyncEveryHours: {
      type: 'integer',
      minimum: 1,
      maximum: 720,
      description:
        'Syncs in between are incremental (by modification time); a full one, which also removes what was deleted, this often',
    },
    data: objectOf(
      {
        ...cmsSettings,
        applicationPassword: secret(
          256,
          'Application password of `username`, as the site shows it (groups of four with spaces) or without the spaces; stored encrypted, never shown again',
          textPatterns.applicationPassword.pattern,
        ),
      },
      ['username', 'applicationPassword', 'pageSize'],
    ),
  },
  ['knowledgeBaseId', 'syncEveryMinutes', 'fullSyncEveryHours'],
);

export const syncRequest = objectOf(
  {
    full: { type: 'boolean', description: 'CMS: make this sync a full one (shop syncs and website crawls always are)' },
    confirmDeletions: {
      type: 'boolean',
      description:
        'Website: let this crawl delete whatever it no longer finds, even more than half of what the last crawl kept (which is refused otherwise)',
    },
  },
  ['full', 'confirmDeletions'],
);

const crawlCounts = objectOf(
  {
    found: { type: 'integer', description: 'Pages found (start URLs, sitemaps, links), at most `maxPages`' },
    fetched: { type: 'integer', description: 'Pages read (200)' },
    unchanged: { type: 'integer', description: 'Pages unchanged since the last crawl (304): nothing re-embedded' },
    sent: { type: 'integer', description: 'Pages whose sections were sent as items' },
    duplicates: { type: 'integer', description: 'Pages another page had the canonical address or the text of' },
    noindex: { type: 'integer', description: 'Pages that ask not to be indexed' },
    skippedByRobots: { type: 'integer', description: 'Pages robots.txt keeps the crawler from' },
    outOfScope: { type: 'integer', description: 'Pages redirected out of the scope' },
    gone: { type: 'integer', description: 'Pages that answered 404 or 410' },
    notPages: { type: 'integer', description: 'Addresses that were not pages or documents (images, downloads)' },
    overCap: { type: 'integer', description: 'Distinct pages found beyond `maxPages`, left out (an estimate within about 1 %)' },
    failed: { type: 'integer', description: 'Pages that could not be read' },
    failedBy: {
      type: 'object',
      additionalProperties: { type: 'integer' },
      description: 'Failures by reason (`http_500`, `timeout`, …)',
    },
    maxInFlight: { type: 'integer', description: 'The most requests the crawl had in flight to one host' },
  },
  [
    'found',
    'fetched',
    'unchanged',
    'sent',
    'duplicates',
    'noindex',
    'skippedByRobots',
    'outOfScope',
    'gone',
    'notPages',
    'overCap',
    'failed',
    'failedBy',
    'maxInFlight',
  ],
);

const crawlFailure = objectOf({
  url: { type: 'string' },
  reason: {
    type: 'string',
    description: '`http_<status>`, `timeout`, `unreachable`, `too_large`, `document_<code>`, `sitemap_unreadable`, …',
  },
  message: { type: 'string' },
  at: timestamp,
});

const syncSummary = objectOf(
  {
    runId: { type: 'string' },
    mode: { enum: ['full', 'incremental'] },
    startedAt: timestamp,
    finishedAt: timestamp,
    outcome: { enum: ['succeeded', 'failed'] },
    sent: { type: 'integer', description: 'Items sent to the ingestion API' },
    unchanged: { type: 'integer', description: 'Items listed unchanged since they were last sent, and so not sent again' },
    deleted: { type: 'integer', description: 'Items cleanup removed' },
    error: { type: 'string', description: 'Why a failed run ended' },
    pages: crawlCounts,
  },
  ['error', 'pages'],
);

export const connectorResponse = objectOf(
  {
    id: uuid,
    type: { enum: ['shop', 'cms', 'website', 'files'] },
    name,
    knowledgeBaseId: uuid,
    integrationId: {
      type: 'string',
      description:
        'The `integrationId` and `sourceOrigin` of every item the connector sends (files: each file\'s items have the origin `{integrationId}/{fileId}`)',
    },
    syncEveryMinutes: nullable({ type: 'integer', description: 'null for files, which are never polled' }),
    fullSyncEveryHours: { type: 'integer', description: 'CMS only' },
    data: {
      type: 'object',
      description:
        'The settings, without secrets: `adminUrl`, `apiVersion`, `pageSize` (shop); `siteUrl`, `username`, `pageSize` (CMS); ' +
        '`startUrls`, `sitemaps`, `include`, `exclude`, `maxPages`, `concurrency`, `requestsPerSecond` (website); ' +
        '`maxFileBytes`, `maxFiles` (files: the limits of an upload and of the source)',
    },
    files: objectOf(
      Object.fromEntries(fileStatuses.map((status) => [status, { type: 'integer' }])) as Record<FileStatus, { type: 'integer' }>,
      [],
    ),
    webhookUrl: httpUrl("Shop only: subscribe the shop's `products/create` and `products/update` webhooks to this address"),
    sync: objectOf(
      {
        state: { enum: ['idle', 'running'] },
        running: objectOf(
          {
            runId: { type: 'string' },
            mode: { enum: ['full', 'incremental'] },
            startedAt: timestamp,
            sent: { type: 'integer', description: 'Items sent so far' },
            unchanged: { type: 'integer', description: 'Items listed so far that were unchanged since they were last sent' },
            pages: crawlCounts,
          },
          ['pages'],
        ),
        last: syncSummary,
        failures: {
          type: 'array',
          items: crawlFailure,
          description: 'Website: the pages the running crawl (or else the last one) could not read, the latest 100, newest first',
        },
        lastFullSyncAt: timestamp,
        nextSyncAt: nullable(timestamp),
      },
      ['running', 'last', 'failures', 'lastFullSyncAt'],
    ),
    createdAt: timestamp,
  },
  ['fullSyncEveryHours', 'webhookUrl', 'files'],
);

export const uploadedFileResponse = objectOf(
  {
    id: uuid,
    name: { type: 'string', description: "The file's name as uploaded: what its items are titled and cited by" },
    size: { type: 'integer', description: 'The latest upload, in bytes' },
    sha256: { type: 'string', description: "The latest upload's SHA-256 (hex): bytes a file of the source has are not taken again" },
    contentType: nullable({ type: 'string', description: 'As declared by the upload; the kind is read from the bytes' }),
    uploadedAt: timestamp,
    status: {
      enum: [...fileStatuses],
      description:
        '`queued` (waiting for the worker), `reading`, `ingested` (its items handed to ingestion: searchable within seconds), ' +
        '`failed` (refused: `error` says why; the version ingested before stays), `removing`',
    },
    ingested: nullable(
      objectOf(
        {
          sha256: { type: 'string' },
          kind: { enum: ['pdf', 'docx', 'html', 'markdown', 'text'] },
          items: { type: 'integer', description: 'Items it became: one per section, one per page of a PDF' },
          pages: { type: 'integer', description: 'PDF: its pages' },
          ingestedAt: timestamp,
        },
        ['pages'],
      ),
    ),
    error: objectOf({
      code: {
        type: 'string',
        description:
          '`unsupported_type`, `type_mismatch`, `too_large`, `too_many_pages`, `too_much_text`, `encrypted`, `corrupt`, `no_text`, `too_complex`, `not_utf8`',
      },
      message: { type: 'string', description: 'What is wrong with the file, naming the limit and its value when it hit one' },
      at: timestamp,
    }),
  },
  ['error'],
);

export const fileUploadResponse = objectOf({
  outcome: {
    enum: ['new', 'version', 'unchanged'],
    description: 'A `new` file; a new `version` of the file of this name; `unchanged`: a file of the source already has these bytes',
  },
  file: uploadedFileResponse,
});

export const fileUploadRequest = objectOf({
  file: { type: 'string', format: 'binary', description: 'The file, with its name (`filename`) in the part\'s Content-Disposition' },
});

export const syncStartedResponse = objectOf({ status: { const: 'started' } });

export const shopWebhookAcknowledgement = objectOf(
  {
    topic: { type: 'string' },
    productId: { type: 'string' },
    action: {
      enum: ['reingest', 'duplicate', 'ignored'],
      description:
        '`reingest`: the product is being read and ingested again; `duplicate`: this delivery was taken in before; `ignored`: not a product change',
    },
  },
  ['productId'],
);
