import { name, nullable, objectOf, secret, timestamp, uuid } from './common.js';
import { textPatterns } from './text-patterns.js';

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
  { full: { type: 'boolean', description: 'CMS: make this sync a full one (shop syncs always are)' } },
  ['full'],
);

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
  },
  ['error'],
);

export const connectorResponse = objectOf(
  {
    id: uuid,
    type: { enum: ['shop', 'cms'] },
    name,
    knowledgeBaseId: uuid,
    integrationId: { type: 'string', description: 'The `integrationId` and `sourceOrigin` of every item the connector sends' },
    syncEveryMinutes: { type: 'integer' },
    fullSyncEveryHours: { type: 'integer', description: 'CMS only' },
    data: {
      type: 'object',
      description:
        'The settings, without secrets: `adminUrl`, `apiVersion`, `pageSize` (shop); `siteUrl`, `username`, `pageSize` (CMS)',
    },
    webhookUrl: httpUrl("Shop only: subscribe the shop's `products/create` and `products/update` webhooks to this address"),
    sync: objectOf(
      {
        state: { enum: ['idle', 'running'] },
        running: objectOf({
          runId: { type: 'string' },
          mode: { enum: ['full', 'incremental'] },
          startedAt: timestamp,
          sent: { type: 'integer', description: 'Items sent so far' },
          unchanged: { type: 'integer', description: 'Items listed so far that were unchanged since they were last sent' },
        }),
        last: syncSummary,
        lastFullSyncAt: timestamp,
        nextSyncAt: nullable(timestamp),
      },
      ['running', 'last', 'lastFullSyncAt'],
    ),
    createdAt: timestamp,
  },
  ['fullSyncEveryHours', 'webhookUrl'],
);

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
