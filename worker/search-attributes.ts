import { isGrpcServiceError, type Connection } from '@temporalio/client';
import { status } from '@grpc/grpc-js';
import type { NativeConnection } from '@temporalio/worker';
import proto, { type temporal } from '@temporalio/proto';
import { searchAttributeKeys } from '#workflows/search-attributes.js';

// The proto package is CommonJS: its values come through the default export under ESM.
const { IndexedValueType } = proto.temporal.api.enums.v1;

const indexedTypes: Record<string, temporal.api.enums.v1.IndexedValueType> = {
  KEYWORD: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  TEXT: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  INT: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  DOUBLE: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  BOOL: IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  DATETIME: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  KEYWORD_LIST: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/**
 * Registers the custom search attributes with the namespace, adding only those it lacks, so that it
 * can run at every start of every worker.
 */
export async function ensureSearchAttributes(connection: Connection | NativeConnection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = searchAttributeKeys.filter((key) => !(key.name in (customAttributes ?? {})));
  if (missing.length === 0) return [];
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((key) => [key.name, indexedTypes[key.type]!])),
    });
  } catch (error) {
    // Another worker starting at the same moment registered them first.
    if (!(isGrpcServiceError(error) && error.code === status.ALREADY_EXISTS)) throw error;
  }
  return missing.map((key) => key.name);
}
