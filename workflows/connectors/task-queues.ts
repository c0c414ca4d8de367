/**
 * The connectors' task queue beside the workflow's own (`<base>-connectors`), served by worker slots of
 * its own (CONNECTOR_CONCURRENCY), so a slow or hostile source never holds the slots that answer
 * visitors or ingest.
 */
export function connectorTaskQueue(base: string): string {
  return `${base}-connectors`;
}
