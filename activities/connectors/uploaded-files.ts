import { openConnector } from '#connectors/open-connector.js';
import { applyFileChange, type FileChange } from '#connectors/files/apply-file.js';
import { connectorSyncFinished, connectorSyncFailed } from '#outbound-events/facts.js';
import type { UploadedFileInput } from '#workflows/connectors/types.js';
import { withHeartbeats } from '../heartbeats.js';
import type { ConnectorActivityDeps } from './deps.js';
import { failingPermanently } from './failures.js';

/** The files sources' activity: each upload or deletion of a file taken into its knowledge base. */
export function createUploadedFileActivities(deps: ConnectorActivityDeps) {
  const { connectors, outboundEvents } = deps;

  /** The tenant's event endpoints hear of a file taken in or refused, as of a sync run that finished or failed. */
  async function announce(connector: { id: string; tenantId: string; kind: string; name: string; knowledgeBaseId: string }, change: FileChange) {
    if (!outboundEvents || change.did === 'nothing') return;
    const { id: connectorId, kind, name, knowledgeBaseId, tenantId } = connector;
    const file = { id: change.file.id, name: change.file.name, sha256: change.file.sha256 };
    // One event per version of a file and what happened to it: a retried round tells again with the same id.
    const runId = `file-${change.file.id}-${change.did}-${change.file.sha256.slice(0, 16)}`;
    if (change.did === 'refused') {
      await outboundEvents.emit(
        tenantId,
        connectorSyncFailed({ connectorId, kind, name, knowledgeBaseId, runId, error: change.file.error?.message ?? 'refused', file }),
      );
      return;
    }
    const counts =
      change.did === 'ingested'
        ? { sent: change.sent, unchanged: change.unchanged, deleted: change.deleted }
        : { sent: 0, unchanged: 0, deleted: change.deleted };
    await outboundEvents.emit(
      tenantId,
      connectorSyncFinished({ connectorId, kind, name, knowledgeBaseId, runId, mode: 'full', ...counts, file: { ...file, change: change.did } }),
    );
  }

  return {
    /** Does what a file's record asks (see `applyFileChange`): reads its latest upload in, or takes it out. */
    applyFileChange: ({ connectorId, fileId }: UploadedFileInput) =>
      failingPermanently(() =>
        withHeartbeats(async (): Promise<FileChange['did']> => {
          const { connector, secrets } = await openConnector(connectors, connectorId, 'files');
          const change = await applyFileChange({
            connector,
            fileId,
            files: deps.files,
            staging: deps.staging,
            syncState: deps.syncState,
            client: deps.ingestionClient(secrets.ingestionKey),
            readDocument: (bytes, options) => deps.documents.read(bytes, options),
            documentLimits: deps.documentLimits,
            progress: deps.progress,
          });
          deps.fileObserver?.changed(change);
          await announce(connector, change);
          return change.did;
        }),
      ),
  };
}
