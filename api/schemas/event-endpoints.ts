import { eventTypes } from '#outbound-events/event-types.js';
import { textPatterns } from './text-patterns.js';
import { nullable, objectOf, timestamp, uuid } from './common.js';

/** The connector and run a `connector.*` event is about. */
const connectorRun = {
  connectorId: uuid,
  kind: { enum: ['shop', 'cms', 'website', 'files'] },
  name: { type: 'string' },
  knowledgeBaseId: uuid,
  runId: { type: 'string' },
} as const;

/** The uploaded file an event of a files source is about. */
const fileFact = objectOf({ id: uuid, name: { type: 'string' }, sha256: { type: 'string' } });

const eventType = { enum: [...eventTypes], description: 'An event type (docs/outbound-events.md)' } as const;

const storedUrl = {
  type: 'string',
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2048,
  description:
    'Where events are POSTed. In production: https, a public host name or address (the rules of connectors); redirects are not followed. Plain http is allowed outside production, for local receivers. ' +
    'An address stored before credentials in it were refused is shown with them as `***`.',
  examples: ['https://hooks.shop.example/kb-events'],
} as const;

// No `user:password@` (a credential every admin of the tenant would be shown back) and no fragment, as for connectors.
const endpointUrl = {
  ...storedUrl,
  pattern: textPatterns.pageAddress.pattern,
  description:
    'Where events are POSTed, without `user:password@` or a fragment (authenticate the request by its signature). In production: https, a public host name or address (the rules of connectors); redirects are not followed. Plain http is allowed outside production, for local receivers.',
} as const;

const eventTypeList = {
  type: 'array',
  items: eventType,
  minItems: 1,
  maxItems: eventTypes.length,
  uniqueItems: true,
  description: 'The events this endpoint receives',
} as const;

const description = {
  type: 'string',
  maxLength: 500,
  description: 'A note for the tenant, such as what receives the events',
} as const;

export const createEventEndpointRequest = objectOf({ url: endpointUrl, eventTypes: eventTypeList, description }, ['description']);

export const eventEndpointResponse = objectOf({
  id: uuid,
  url: storedUrl,
  description,
  eventTypes: eventTypeList,
  status: {
    enum: ['active', 'disabled'],
    description:
      '`disabled`: an event failed for the whole retry period (24 hours by default); nothing is sent until it is re-enabled',
  },
  disabledReason: { ...nullable({ type: 'string' }), description: 'Why it was disabled: the event and the last error' },
  disabledAt: nullable(timestamp),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const signingSecret = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9_-]{43}$',
  description: 'The HMAC key of `X-Signature-256` (the whole string). Shown this once: stored encrypted, never returned again.',
} as const;

export const createdEventEndpointResponse = objectOf({ ...eventEndpointResponse.properties, signingSecret });

export const eventEndpointListResponse = objectOf({ endpoints: { type: 'array', items: eventEndpointResponse } });

export const rotatedSecretResponse = objectOf({ signingSecret });

const deliveryAttempt = objectOf({
  eventId: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
  type: eventType,
  attempt: { type: 'integer', minimum: 0, description: '1 for the first try; 0 for an event not sent (`skipped`)' },
  outcome: {
    enum: ['delivered', 'failed', 'gave_up', 'skipped'],
    description:
      '`delivered`: answered 2xx; `failed`: tried again later; `gave_up`: the retry period ended, the endpoint was disabled; `skipped`: not sent, the endpoint was disabled',
  },
  statusCode: { ...nullable({ type: 'integer' }), description: "The endpoint's status, or null when it gave none" },
  error: nullable({ type: 'string' }),
  at: timestamp,
});

export const deliveryListResponse = objectOf({
  deliveries: { type: 'array', items: deliveryAttempt, description: 'The latest 100 attempts at most, newest first' },
});

/** The body of every delivery, whatever its type: `data` is the type's own (see the `webhooks` section). */
function envelope(type: (typeof eventTypes)[number], data: Record<string, unknown>) {
  return objectOf({
    id: {
      type: 'string',
      pattern: '^evt_[0-9a-f]{32}$',
      description: 'Derived from the fact: deliver again, same id. Deduplicate by it.',
    },
    type: { const: type },
    tenantId: uuid,
    createdAt: timestamp,
    data,
  });
}

const conversation = {
  conversationId: uuid,
  operatorId: uuid,
  knowledgeBaseId: uuid,
  channel: { enum: ['widget', 'messaging'] },
} as const;

const statusChange = objectOf({
  ...conversation,
  status: { enum: ['waiting_for_agent', 'agent', 'closed'] },
  agent: nullable(objectOf({ id: { type: 'string' }, name: { type: 'string' } })),
});

/** What each event type's body holds: the OpenAPI 3.1 `webhooks`, by type. */
export const eventPayloads = {
  'conversation.created': envelope('conversation.created', objectOf(conversation)),
  'conversation.handed_off': envelope('conversation.handed_off', statusChange),
  'conversation.agent_assigned': envelope('conversation.agent_assigned', statusChange),
  'conversation.assigned': envelope(
    'conversation.assigned',
    objectOf({
      ...conversation,
      teamId: nullable({ type: 'string' }),
      assignee: nullable(objectOf({ id: { type: 'string' }, name: { type: 'string' } })),
      reason: { enum: ['routed', 'not_taken_up', 'agent_left', 'offered', 'manual'] },
      by: nullable(objectOf({ id: { type: 'string' }, name: { type: 'string' } })),
    }),
  ),
  'conversation.closed': envelope('conversation.closed', statusChange),
  'sla.breached': envelope(
    'sla.breached',
    objectOf({
      ...conversation,
      metric: { enum: ['firstResponse', 'nextResponse', 'resolution'] },
      dueAt: timestamp,
      teamId: nullable({ type: 'string' }),
      assigneeId: nullable({ type: 'string' }),
    }),
  ),
  'message.created': envelope(
    'message.created',
    objectOf({
      ...conversation,
      message: objectOf({
        id: { type: 'string' },
        author: { enum: ['visitor', 'ai', 'agent', 'system'] },
        text: { type: 'string' },
        createdAt: timestamp,
        replyTo: nullable({ type: 'string' }),
      }),
    }),
  ),
  'ingestion.failed': envelope(
    'ingestion.failed',
    objectOf({
      jobId: { type: 'string' },
      integrationId: { type: 'string' },
      externalId: { type: 'string' },
      knowledgeBaseId: uuid,
      error: objectOf({ code: { type: 'string' }, message: { type: 'string' } }),
    }),
  ),
  'connector.sync_failed': envelope(
    'connector.sync_failed',
    objectOf(
      {
        ...connectorRun,
        error: { type: 'string' },
        file: { ...fileFact, description: 'Files: the upload refused (its reason is `error`)' },
      },
      ['file'],
    ),
  ),
  'connector.sync_finished': envelope(
    'connector.sync_finished',
    objectOf(
      {
        ...connectorRun,
        mode: { enum: ['full', 'incremental'] },
        sent: { type: 'integer', description: 'Items sent to the ingestion API' },
        unchanged: { type: 'integer', description: 'Items listed unchanged, not sent again' },
        deleted: { type: 'integer', description: 'Items cleanup removed' },
        pages: {
          type: 'object',
          additionalProperties: true,
          description: "Website: the crawl's page counts, as the connector's status shows them",
        },
        file: {
          ...fileFact,
          properties: { ...fileFact.properties, change: { enum: ['ingested', 'removed'] } },
          required: [...fileFact.required, 'change'],
          description: 'Files: the file taken in (a new upload or version) or removed; the run id names the file and version',
        },
      },
      ['pages', 'file'],
    ),
  ),
} as const;

const signedHeaders = {
  'X-Signature-256': {
    required: true,
    description: '`sha256=` and the hex HMAC-SHA256, keyed with the signing secret, of `<X-Event-Timestamp>.<raw body>`',
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
  },
  'X-Event-Timestamp': {
    required: true,
    description: 'Unix seconds when this attempt was signed; refuse one more than 5 minutes from your clock',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'X-Event-Id': { required: true, description: "The body's `id`", schema: { type: 'string' } },
  'X-Event-Type': { required: true, description: "The body's `type`", schema: { type: 'string' } },
};

/** The OpenAPI 3.1 `webhooks` section: one POST per event type, as endpoints receive it. */
export function eventWebhooks(): Record<string, object> {
  return Object.fromEntries(
    Object.entries(eventPayloads).map(([type, schema]) => [
      type,
      {
        post: {
          summary: `${type}, signed`,
          description:
            'Sent to each active event endpoint subscribed to this type, signed (docs/outbound-events.md): verify `X-Signature-256` over the raw bytes before parsing. ' +
            'Answer 2xx within 10 s; anything else (redirects included) is retried with backoff for 24 hours, in order per endpoint.',
          tags: ['Event endpoints'],
          parameters: Object.entries(signedHeaders).map(([name, header]) => ({ name, in: 'header', ...header })),
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: { '2XX': { description: 'Received; anything else is retried' } },
        },
      },
    ]),
  );
}
