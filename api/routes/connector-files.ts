import { EmptyUploadError, type FileUploads } from '#connectors/files/file-uploads.js';
import { FileLimitError, type FileRecords, type UploadedFile } from '#connectors/files/file-records.js';
import { UploadTooLargeError } from '#connectors/files/staging.js';
import type { ConnectorRecords, FilesConnector } from '#connectors/records.js';
import { AppError, conflict, limitReached, notFound } from '../errors.js';
import { fileTooLarge, takeUploadedFile } from '../multipart-file.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedBy } from '../ownership.js';
import { listOf } from '../schemas/admin.js';
import { fileUploadRequest, fileUploadResponse, uploadedFileResponse } from '../schemas/connectors.js';
import type { UserState } from '../state.js';
import type { UserGuard } from '../middleware/token-budgets.js';

export interface ConnectorFilesRouterDeps {
  requireUser: UserGuard;
  connectors: Pick<ConnectorRecords, 'get'>;
  files: Pick<FileRecords, 'get' | 'list'>;
  uploads: FileUploads;
  /** Told of each upload answered (the API's metrics): its outcome, or the code it was refused with. */
  observe?: (outcome: string) => void;
}

/**
 * The files of a files source (`POST /connectors/files`): uploaded as `multipart/form-data`, streamed
 * to staging (never whole in the API's memory), read by a worker into one item per section (per page
 * of a PDF) of the source's knowledge base. Role admin. docs/sources.md.
 */
export function createConnectorFilesRouter(deps: ConnectorFilesRouterDeps) {
  const { requireUser, connectors, files, uploads } = deps;
  const router = new DocumentedRouter<UserState>({ tags: ['Connectors'], security: 'userToken', errors: [401, 403, 404, 429, 503] });
  router.use(requireUser(['admin']));

  async function filesSource(ctx: { params: Record<string, string>; state: UserState }): Promise<FilesConnector> {
    const connector = ownedBy(await connectors.get(ctx.params.connectorId!), ctx.state.user.tenantId, `connector ${ctx.params.connectorId}`);
    if (connector.kind !== 'files') {
      throw conflict(`Connector ${connector.id} is a ${connector.kind} connector: files are uploaded to a files source (POST /connectors/files).`);
    }
    return connector;
  }

  async function fileOf(ctx: { params: Record<string, string>; state: UserState }) {
    const connector = await filesSource(ctx);
    const file = await files.get(connector.id, ctx.params.fileId!);
    if (!file || file.status === 'removing') throw notFound(`No file ${ctx.params.fileId} in connector ${connector.id}.`);
    return { connector, file };
  }

  router.post(
    '/connectors/{connectorId}/files',
    {
      summary: 'Upload a file',
      description:
        'Uploads a PDF, Word (.docx), HTML, Markdown or text file to a files source, as `multipart/form-data` with the file in a part named `file` ' +
        "(its `filename` is the file's name). The kind is read from the bytes, never from the name. The file is streamed to staging and read by " +
        'a worker: one `PAGE` item per section (per page of a PDF), titled and cited by the file\'s name (and page). ' +
        'Bytes a file of the source already has change nothing (200, `unchanged`); a name the source has is a new version, which replaces ' +
        "the old one's items once read (202, `version`); else a new file (202, `new`). Follow `status` with `GET …/files/{fileId}`: a file " +
        'that cannot be read (encrypted, corrupt, no text, over a limit) ends `failed` with the reason, and its version before stays. ' +
        'Larger than `maxFileBytes` (default 25 MiB): 413 `file_too_large`; empty: 400 `empty_file`; more than `maxFiles` files (default 10,000): ' +
        '409 `file_limit_reached`.',
      body: fileUploadRequest,
      bodyType: 'multipart',
      responses: {
        200: { description: 'The source already has these bytes: nothing changed', schema: fileUploadResponse },
        202: { description: 'A new file or version, on its way into the knowledge base', schema: fileUploadResponse },
      },
      errors: [409],
    },
    async (ctx) => {
      const connector = await filesSource(ctx);
      try {
        const staged = await takeUploadedFile(
          ctx,
          uploads.limits.maxFileBytes,
          async ({ name, contentType, bytes }) => ({ name, contentType, ...(await uploads.stage(connector, bytes)) }),
          (staged) => uploads.discard(connector, staged),
        );
        const { file, outcome } = await uploads.accept(connector, staged);
        ctx.status = outcome === 'unchanged' ? 200 : 202;
        ctx.body = { outcome, file: presentFile(file) };
        deps.observe?.(outcome);
      } catch (error) {
        const refusal = refusalOf(error, uploads.limits.maxFileBytes);
        deps.observe?.(refusal instanceof AppError ? refusal.code : 'error');
        throw refusal;
      }
    },
  );

  router.get(
    '/connectors/{connectorId}/files',
    {
      summary: "A files source's files",
      description: 'By name. Files being removed are not listed.',
      responses: { 200: { description: 'The files', schema: listOf('files', uploadedFileResponse) } },
      errors: [409],
    },
    async (ctx) => {
      const connector = await filesSource(ctx);
      const all = await files.list(connector.id);
      ctx.body = { files: all.filter((file) => file.status !== 'removing').map(presentFile) };
    },
  );

  router.get(
    '/connectors/{connectorId}/files/{fileId}',
    {
      summary: 'A file',
      description: "Its latest upload's status, what of it the knowledge base holds (`ingested`), and why an upload was refused (`error`).",
      responses: { 200: { description: 'The file', schema: uploadedFileResponse } },
      errors: [409],
    },
    async (ctx) => {
      ctx.body = presentFile((await fileOf(ctx)).file);
    },
  );

  router.delete(
    '/connectors/{connectorId}/files/{fileId}',
    {
      summary: 'Delete a file',
      description:
        'Takes the file out of the knowledge base (its items are deleted by a cleanup of its own origin) and forgets it. ' +
        'Answered at once; the file is no longer listed, and its passages leave within seconds.',
      responses: { 202: { description: 'Being removed', schema: uploadedFileResponse } },
      errors: [409],
    },
    async (ctx) => {
      const { connector, file } = await fileOf(ctx);
      const removing = await uploads.remove(connector, file.id);
      if (!removing) throw notFound(`No file ${file.id} in connector ${connector.id}.`);
      ctx.status = 202;
      ctx.body = presentFile(removing);
    },
  );

  return router;
}

/** A file as the API shows it: where its upload waits is the service's business. */
function presentFile(file: UploadedFile) {
  const { stagingId: _stagingId, connectorId: _connectorId, ...shown } = file;
  return shown;
}

/** The API's words for an upload refused on its way in. */
function refusalOf(error: unknown, maxFileBytes: number): unknown {
  if (error instanceof UploadTooLargeError) return fileTooLarge(maxFileBytes);
  if (error instanceof EmptyUploadError) {
    return new AppError(400, 'empty_file', error.message, [{ path: '/file', message: 'is empty' }]);
  }
  if (error instanceof FileLimitError) return limitReached('file_limit_reached', error.message);
  return error;
}
