import { nullable, objectOf, timestamp, uuid } from './common.js';
import { insightChannel } from './insights-channel.js';
import { textPatterns } from './text-patterns.js';

/** Limits of the content-gaps routes. */
export const contentGapLimits = { listDefault: 20, listMax: 100, noteMax: 500 } as const;

const day = {
  type: 'string',
  format: 'date',
  description: 'A UTC day, `YYYY-MM-DD`',
  examples: ['2026-11-01'],
} as const;

export const contentGapsQuery = objectOf(
  {
    operatorId: uuid,
    from: { ...day, description: 'First day counted (UTC, included). Default: 29 days before `to`.' },
    to: { ...day, description: 'Last day counted (UTC, included). Default: today. At most 366 days from `from`.' },
    channel: insightChannel,
    limit: { type: 'integer', minimum: 1, maximum: contentGapLimits.listMax, default: contentGapLimits.listDefault },
  },
  ['from', 'to', 'channel', 'limit'],
);

export const contentGapOperatorQuery = objectOf({ operatorId: uuid });

const sourceKey = {
  type: 'string',
  minLength: 3,
  maxLength: 600,
  pattern: '^[^/]+/.+$',
  description: 'A source: `<knowledgeBaseId>/<externalId>`',
} as const;

const addressedBy = objectOf({ userId: { type: 'string' }, name: { type: 'string' } });

const addressed = objectOf({
  articleId: nullable({ type: 'string' }),
  sourceKey: nullable({ type: 'string' }),
  note: nullable({ type: 'string' }),
  addressedAt: timestamp,
  by: addressedBy,
  askedSince: {
    type: 'integer',
    minimum: 0,
    description: 'Questions of the cluster asked after it was marked addressed (on the channel asked for), whatever the range.',
  },
});

const cluster = objectOf({
  id: { type: 'string' },
  count: { type: 'integer', minimum: 1, description: 'Questions in the range (on the channel asked for).' },
  representative: { type: 'string', description: 'The question nearest the cluster’s centre.' },
  examples: {
    type: 'array',
    maxItems: 5,
    items: { type: 'string' },
    description: 'Up to five different wordings, latest first (asked on the channel asked for).',
  },
  closestSources: {
    type: 'array',
    items: objectOf({
      key: { type: 'string' },
      title: { type: 'string' },
      score: {
        type: ['number', 'null'],
        description: 'The best cosine similarity to one of its questions; null when only answers rated down cited it.',
      },
      questions: { type: 'integer', minimum: 1, description: 'Questions it came close for.' },
    }),
    description: 'The sources that came closest to answering, though not close enough.',
  },
  reasons: objectOf({ unknown: { type: 'integer', minimum: 0 }, ratedDown: { type: 'integer', minimum: 0 } }),
  firstAskedAt: { ...timestamp, description: 'Its first question (on the channel asked for), whatever the range.' },
  lastAskedAt: { ...timestamp, description: 'Its last question (on the channel asked for), whatever the range.' },
  addressed: nullable(addressed),
});

export const contentGapsResponse = objectOf({
  clusters: { type: 'array', items: cluster },
  pending: { type: 'integer', minimum: 0, description: 'Gaps recorded since the clustering: they show once it runs again.' },
  clusteredAt: nullable({ ...timestamp, description: 'When the clusters were made; null before any.' }),
});

/** At least one of `articleId` and `sourceKey` (the route checks: the validator's strict mode refuses `anyOf` of `required`s). */
export const addressedRequest = objectOf(
  {
    articleId: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: textPatterns.wellFormed.pattern,
      description: 'The help-centre article written for it. At least one of `articleId` and `sourceKey`.',
    },
    sourceKey,
    note: { type: 'string', maxLength: contentGapLimits.noteMax, pattern: textPatterns.wellFormed.pattern },
  },
  ['articleId', 'sourceKey', 'note'],
);

export const addressedResponse = objectOf({ clusterId: { type: 'string' }, addressed });
