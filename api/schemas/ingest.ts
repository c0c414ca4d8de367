import { ingestLimits } from '#knowledge/ingest-limits.js';
import { jobStatuses } from '#knowledge/jobs.js';
import { sourceTypes } from '#workflows/ingestion/types.js';
import { nullable, objectOf, text, timestamp, uuid } from './common.js';
import { textPatterns } from './text-patterns.js';

export { ingestLimits };

const identifier = (maxLength: number, description: string) => text({ minLength: 1, maxLength, description });

export const ingestItem = objectOf(
  {
    integrationId: identifier(200, 'The integration (connector) the data belongs to.'),
    knowledgeBaseId: { ...uuid, description: "Target knowledge base; the tenant's default when omitted." },
    sourceType: { enum: [...sourceTypes] },
    externalId: identifier(500, "Stable id in the caller's system; with integrationId, the job identity."),
    sourceOrigin: identifier(200, 'Origin tag of the connector; scopes cleanup.'),
    data: objectOf(
      {
        title: { type: 'string', minLength: 1, maxLength: ingestLimits.titleChars },
        content: {
          type: 'string',
          description: `Text the AI answers from (plain text or HTML), at most ${ingestLimits.contentChars} characters (413 beyond).`,
        },
        url: {
          type: 'string',
          format: 'uri',
          pattern: textPatterns.httpAddress.pattern,
          maxLength: 2048,
          description: 'Used in citations.',
        },
        metadata: {
          type: 'object',
          description: `Original raw data (price, sku, author…); at most ${ingestLimits.metadataBytes} bytes as JSON and ${ingestLimits.nesting} levels deep (413 beyond).`,
        },
        sourceData: {
          type: 'object',
          description: `Structured source data for richer answers; at most ${ingestLimits.metadataBytes} bytes as JSON and ${ingestLimits.nesting} levels deep (413 beyond).`,
        },
        hash: {
          type: 'string',
          minLength: 1,
          maxLength: 128,
          description: 'SHA-256 (hex) of title and content; an unchanged hash skips the item unless forceRefresh.',
        },
      },
      ['url', 'metadata', 'sourceData', 'hash'],
    ),
    options: objectOf(
      {
        forceRefresh: { type: 'boolean', description: 'Process even when the hash is unchanged.' },
        priority: {
          enum: ['high', 'low'],
          description: '`high` (the default) for user-triggered imports, `low` for background syncs.',
        },
        metadataOnly: { type: 'boolean', description: 'Replace url, metadata and sourceData without re-embedding.' },
      },
      ['forceRefresh', 'priority', 'metadataOnly'],
    ),
  },
  ['knowledgeBaseId', 'sourceOrigin', 'options'],
);

export const bulkRequest = objectOf({
  items: {
    type: 'array',
    minItems: 1,
    items: ingestItem,
    description: `At most ${ingestLimits.itemsPerBulk} items (413 beyond); 50 to 100 per call recommended.`,
  },
});

export const cleanupRequest = objectOf(
  {
    knowledgeBaseId: { ...uuid, description: "The tenant's default knowledge base when omitted." },
    sourceOrigin: identifier(200, 'Only sources with exactly this origin tag are considered. Required.'),
    keepExternalIds: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 500 },
      description: `External ids that still exist. Required: an empty list deletes every source of the origin. At most ${ingestLimits.keepExternalIds} ids (413 beyond), within the body limit.`,
    },
  },
  ['knowledgeBaseId'],
);

export const queuedResponse = objectOf({ status: { const: 'queued' }, jobId: { type: 'string' } });

export const bulkQueuedResponse = objectOf({
  status: { const: 'queued' },
  jobCount: { type: 'integer' },
  estimatedTime: { type: 'string', pattern: '^\\d+s$', description: 'Queueing time at 10 items per second.' },
  jobIds: { type: 'array', items: { type: 'string' }, description: 'In request order.' },
});

export const cleanupResponse = objectOf({
  deleted: { type: 'integer' },
  orphanedExternalIds: { type: 'array', items: { type: 'string' } },
});

/** A cleanup still running when the request's wait ended (an extension of the interface, F15). */
export const cleanupRunningResponse = objectOf({
  status: { const: 'running' },
  cleanupId: { type: 'string', description: 'The same request sent again names the same cleanup while it runs.' },
  statusUrl: {
    type: 'string',
    description: 'GET it (scope iq:import): 200 with the cleanup body once it is over, 202 with this body while it runs.',
  },
});

export const jobResponse = objectOf(
  {
    jobId: { type: 'string' },
    status: { enum: [...jobStatuses] },
    knowledgeBaseId: uuid,
    updatedAt: timestamp,
    error: objectOf({ code: { type: 'string' }, message: { type: 'string' } }),
  },
  ['error'],
);

export const searchQuery = objectOf(
  {
    q: { type: 'string', minLength: 1, maxLength: 1000, description: 'What to look for.' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'Sources to return (default 10, at most 50).' },
  },
  ['limit'],
);

export const searchResponse = objectOf({
  results: {
    type: 'array',
    items: objectOf({
      externalId: { type: 'string' },
      integrationId: { type: 'string' },
      sourceType: { enum: [...sourceTypes] },
      sourceOrigin: nullable({ type: 'string' }),
      title: { type: 'string' },
      url: nullable({ type: 'string' }),
      snippet: { type: 'string', description: "The source's best passage." },
      score: { type: 'number' },
      metadata: nullable({ type: 'object' }),
      sourceData: nullable({ type: 'object' }),
    }),
  },
});
