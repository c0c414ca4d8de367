import type { ChunkIndex } from '#knowledge/chunk-index.js';
import type { CleanupLists } from '#knowledge/cleanup-lists.js';
import type { Embedder } from '#knowledge/embeddings/index.js';
import type { IngestionClient } from '#knowledge/ingestion-client.js';
import type { JobStore } from '#knowledge/jobs.js';
import type { SourceStore } from '#knowledge/sources.js';
import { createCmsSyncActivities } from './connectors/cms-sync.js';
import type { ConnectorActivityDeps } from './connectors/deps.js';
import { createShopSyncActivities } from './connectors/shop-sync.js';
import { createSyncRunActivities } from './connectors/sync-runs.js';
import { createWebsiteCrawlActivities } from './connectors/website-crawl.js';
import { createUploadedFileActivities } from './connectors/uploaded-files.js';
import { createAssignmentActivities, type AssignmentActivityDeps } from './conversations/assignment.js';
import { createSlaActivities, type SlaActivityDeps } from './conversations/sla.js';
import { messageRecorder } from './conversations/record-message.js';
import { createConversationActivities, type ConversationActivityDeps } from './conversations/conversation-activities.js';
import { createDeliveryActivities, type DeliveryActivityDeps } from './conversations/deliver-messages.js';
import { createMarkReadActivities } from './conversations/mark-read.js';
import { createCleanupActivities } from './ingestion/cleanup.js';
import { createIngestionActivities } from './ingestion/ingest-source.js';
import { createReembedActivities } from './ingestion/reembed-source.js';
import { createReindexActivities } from './ingestion/reindex.js';
import { createEventDeliveryActivities, type EventDeliveryDeps } from './outbound-events/deliver-event.js';
import type { EventEmitter } from '#outbound-events/emitter.js';
import { createContentGapsActivities, type ContentGapsActivityDeps } from './insights/content-gaps.js';

/** The clients and stores activities reach the world through, built once per worker process. */
export interface ActivityDeps {
  jobs: JobStore;
  sources: SourceStore;
  chunkIndex: ChunkIndex;
  embedder: Embedder;
  /** The cleanup asks item workflows to delete orphans through it, and a re-index to embed sources again. */
  ingestion: Pick<IngestionClient, 'remove' | 'reembed'>;
  /** Cleanups' staged keep lists, and the lists of what they deleted. */
  cleanupLists: Pick<CleanupLists, 'keeps' | 'recordDeleted'>;
  conversations: ConversationActivityDeps;
  /** Teams and assignment: the conversation workflow's assignment step. */
  assignment: Omit<AssignmentActivityDeps, 'tellCustomer'>;
  /** Service-level clocks: the conversation workflow's SLA step. */
  sla: SlaActivityDeps;
  /** The messaging channel's outbound side. */
  delivery: DeliveryActivityDeps;
  /** The built-in connectors: their records, sync state, sources and the public ingestion API. */
  connectors: ConnectorActivityDeps;
  /** Outbound events: emitted where facts become durable, then delivered, signed, to tenants' endpoints. */
  outboundEvents?: Pick<EventEmitter, 'emit'>;
  eventDelivery: EventDeliveryDeps;
  /** The content gaps' clustering (docs/insights.md). */
  contentGaps: ContentGapsActivityDeps;
}

/**
 * Every activity of the worker, as one flat object (names are unique across areas). Workflows see
 * only `Activities`, the type.
 */
export function createActivities(deps: ActivityDeps) {
  // The connectors tell the tenant's event endpoints of the runs that end.
  const connectors = { ...deps.connectors, outboundEvents: deps.outboundEvents };
  return {
    ...createIngestionActivities(deps),
    ...createCleanupActivities(deps),
    ...createReembedActivities(deps),
    ...createReindexActivities(deps),
    ...createConversationActivities({ ...deps.conversations, outboundEvents: deps.outboundEvents }),
    ...createAssignmentActivities({
      ...deps.assignment,
      // The customer hears that the team is away as they hear every other notice.
      tellCustomer: messageRecorder({ ...deps.conversations, outboundEvents: deps.outboundEvents }),
      outboundEvents: deps.outboundEvents,
    }),
    ...createSlaActivities({ ...deps.sla, outboundEvents: deps.outboundEvents }),
    ...createDeliveryActivities(deps.delivery),
    ...createMarkReadActivities(deps.delivery),
    ...createShopSyncActivities(connectors),
    ...createCmsSyncActivities(connectors),
    ...createWebsiteCrawlActivities(connectors),
    ...createUploadedFileActivities(connectors),
    ...createSyncRunActivities(connectors),
    ...createEventDeliveryActivities(deps.eventDelivery),
    ...createContentGapsActivities(deps.contentGaps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
