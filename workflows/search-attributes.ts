import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The custom search attributes operators filter on in the Temporal UI. Workflows set them with
 * `upsertSearchAttributes`; the worker registers them with the namespace at start-up.
 */
export const tenantIdKey = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);
export const knowledgeBaseIdKey = defineSearchAttributeKey('KnowledgeBaseId', SearchAttributeType.KEYWORD);
export const integrationIdKey = defineSearchAttributeKey('IntegrationId', SearchAttributeType.KEYWORD);
export const sourceTypeKey = defineSearchAttributeKey('SourceType', SearchAttributeType.KEYWORD);
export const channelKey = defineSearchAttributeKey('Channel', SearchAttributeType.KEYWORD);
export const conversationStatusKey = defineSearchAttributeKey('ConversationStatus', SearchAttributeType.KEYWORD);

export const searchAttributeKeys = [
  tenantIdKey,
  knowledgeBaseIdKey,
  integrationIdKey,
  sourceTypeKey,
  channelKey,
  conversationStatusKey,
];
