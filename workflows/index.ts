/**
 * The worker's workflows (its `workflowsPath`). Deterministic code only: no Node built-ins, no I/O,
 * no activity implementations; activities are reached through `proxyActivities<Activities>`.
 */
export { ingestItemWorkflow } from './ingestion/ingest-item.js';
export { cleanupWorkflow } from './ingestion/cleanup.js';
export { reindexKnowledgeBaseWorkflow } from './ingestion/reindex.js';
export { conversationWorkflow } from './conversations/workflow.js';
export { shopSyncWorkflow } from './connectors/shop-sync.js';
export { shopProductWorkflow } from './connectors/shop-product.js';
export { cmsSyncWorkflow } from './connectors/cms-sync.js';
export { websiteCrawlWorkflow } from './connectors/website-crawl.js';
export { uploadedFileWorkflow } from './connectors/uploaded-file.js';
export { deliverEventsWorkflow } from './outbound-events/deliver-events.js';
export { deliverEventWorkflow } from './outbound-events/deliver-event.js';
export { contentGapsWorkflow } from './insights/content-gaps.js';
