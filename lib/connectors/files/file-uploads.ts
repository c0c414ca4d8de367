import type { Client } from '@temporalio/client';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { fileChangedSignal } from '#workflows/connectors/messages.js';
import type { UploadedFileInput } from '#workflows/connectors/types.js';
import { uploadedFileWorkflowId } from '#workflows/ids.js';
import type { FilesConnector } from '../records.js';
import type { FileRecords, UploadedFile, UploadOutcome } from './file-records.js';
import type { StagedUpload, UploadStaging } from './staging.js';

/** Files a source holds at most, by default. */
export const maxFilesPerSource = 10_000;

export interface FileUploadsDeps {
  files: FileRecords;
  staging: UploadStaging;
  temporal: Client;
  taskQueue: string;
  /** An upload's bytes at most (the documents' `maxBytes`), and a source's files at most. */
  maxFileBytes: number;
  maxFiles: number;
}

/** An upload refused before anything was recorded: it holds no bytes. */
export class EmptyUploadError extends Error {
  constructor(readonly fileName: string) {
    super(`${fileName} is empty: there is nothing to read in it.`);
    this.name = 'EmptyUploadError';
  }
}

/**
 * Files uploaded to a files source, as the API takes them: an upload is staged as it streams in, then
 * recorded, then the file's workflow is told (and started, the first time): it reads the file on a
 * worker and sends its items. A deletion is recorded and told the same way. Nothing is answered as
 * accepted before the workflow was told, so an upload answered 202 is never lost: if Temporal cannot
 * be reached the client hears 503, and the same upload sent again tells the workflow then.
 */
export function createFileUploads(deps: FileUploadsDeps) {
  const { files, staging } = deps;

  const tell = (connector: Pick<FilesConnector, 'id' | 'tenantId'>, fileId: string) =>
    deps.temporal.workflow.signalWithStart('uploadedFileWorkflow', {
      workflowId: uploadedFileWorkflowId(connector.tenantId, connector.id, fileId),
      taskQueue: deps.taskQueue,
      args: [{ connectorId: connector.id, fileId } satisfies UploadedFileInput],
      signal: fileChangedSignal,
    });

  const uploads = {
    limits: { maxFileBytes: deps.maxFileBytes, maxFiles: deps.maxFiles },

    /** Writes the file's bytes to staging as they arrive; more than `maxFileBytes` is an UploadTooLargeError. */
    stage: (connector: Pick<FilesConnector, 'id'>, bytes: AsyncIterable<Uint8Array>): Promise<StagedUpload> =>
      staging.stage(connector.id, bytes, deps.maxFileBytes),

    /** Drops a staged upload the request was refused after all. */
    discard: (connector: Pick<FilesConnector, 'id'>, staged: StagedUpload) => staging.discard(connector.id, staged.stagingId),

    /**
     * Records a staged upload (see `FileRecords.accept`) and tells the file's workflow. An upload that
     * changes nothing tells it only when the file still waits for it (its last telling may have failed).
     */
    async accept(
      connector: Pick<FilesConnector, 'id' | 'tenantId'>,
      upload: StagedUpload & { name: string; contentType: string | null },
    ): Promise<{ file: UploadedFile; outcome: UploadOutcome }> {
      const { stagingId, size, sha256, name, contentType } = upload;
      if (size === 0) throw new EmptyUploadError(name);
      let accepted;
      try {
        accepted = await files.accept(connector.id, { name, contentType, size, sha256, stagingId }, deps.maxFiles);
      } catch (error) {
        await staging.discard(connector.id, stagingId).catch(() => undefined);
        throw error;
      }
      const { file, outcome, replacedStagingId } = accepted;
      if (outcome === 'unchanged') await staging.discard(connector.id, stagingId);
      if (replacedStagingId) await staging.discard(connector.id, replacedStagingId);
      if (outcome !== 'unchanged' || file.status === 'queued') await tell(connector, file.id);
      return { file, outcome };
    },

    /** Marks the file for removal and tells its workflow; undefined when the source has no such file. */
    async remove(connector: Pick<FilesConnector, 'id' | 'tenantId'>, fileId: string): Promise<UploadedFile | undefined> {
      const file = await files.markRemoving(connector.id, fileId);
      if (file) await tell(connector, file.id);
      return file;
    },
  };
  return tagUnavailable('temporal', uploads);
}

export type FileUploads = ReturnType<typeof createFileUploads>;
