/**
 * `npm run bench:files [-- --pages 200 --large-mib 24]`: uploading files, on a stack of its own (1 API,
 * 1 worker). The PDF is real text: one page per page of the PostgreSQL 15 manual (`postgres-docs.ts`,
 * its first `--pages` pages by name, their main content, up to 2,000 characters each), written by pdfkit.
 * After a warm-up, measured in one run:
 *  - baseline: the items the upload becomes (read here with `extractDocument` + `fileItems`, the
 *    same identities), posted straight to POST /ingest/bulk until every job is searchable;
 *  - the upload: from the POST of the file until every item of it is searchable, with the API's and
 *    the worker's resident memory sampled every 50 ms (peak growth over the process's before);
 *  - a large upload (`--large-mib` of Markdown, more text than a document may hold, so the worker
 *    refuses it after staging): the API's memory while it streams in, whatever the file's size.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { extractDocument } from '#connectors/documents/extract.js';
import { readHtml } from '#connectors/documents/html.js';
import { decodeHtml } from '#connectors/website/decode-html.js';
import { fileItems } from '#connectors/files/apply-file.js';
import { asSent } from '#connectors/send-items.js';
import type { ExtractedDocument } from '#connectors/documents/types.js';
import { pdfOfPages } from '#testing/documents.js';
import { residentBytes } from '#testing/process-usage.js';
import { log } from '#deploy/local/output.js';
import {
  createMeasuredTenant,
  ingestAll,
  measuredTenantAdmin,
  round,
  startMeasuredStack,
  waitFor,
  waitUntilIngested,
  type MeasuredStack,
} from './measured-stack.js';
import { postgresDocsPackage, postgresDocsPages, unpackedPostgresDocs } from './postgres-docs.js';

const { values: args } = parseArgs({
  options: { pages: { type: 'string', default: '200' }, 'large-mib': { type: 'string', default: '24' } },
});
const pageCount = Number(args.pages);
const largeMib = Number(args['large-mib']);
const MiB = 1_048_576;

const folder = await unpackedPostgresDocs();
const manual = await postgresDocsPackage();
const names = postgresDocsPages(folder).slice(0, pageCount);
if (names.length < pageCount) throw new Error(`the manual has ${names.length} pages, fewer than --pages ${pageCount}`);
const texts = names.map((name) => {
  const page = readHtml(decodeHtml(readFileSync(join(folder, name)), 'text/html; charset=utf-8'), { mainContent: true, url: `https://docs.test/${name}` });
  return page.sections.map((section) => section.text).join('\n').slice(0, 2_000);
});
const pdf = await pdfOfPages(texts, { size: 'A4', margin: 40 });
const document = await extractDocument(pdf, { name: 'manual.pdf' });
log(`${manual}: a ${round(pdf.byteLength / MiB, 2)} MiB PDF of ${document.pages} pages, ${document.sections.length} with text`);

const stack = await startMeasuredStack('files');
try {
  const apps = await stack.startApps(1);
  const apiPid = apps.api.pid!;
  const workerPid = apps.workers[0]!.pid!;
  log(`profile ${stack.profile}: 1 API and 1 worker process`);

  // Warm-up, not measured: the first items of a fresh stack pay for creating the Weaviate collection,
  // and the worker's documents thread starts with its first file.
  const warm = await filesSource(stack);
  const warmPdf = await pdfOfPages(texts.slice(0, 10));
  await uploadAndWait(stack, warm, 'warm-up.pdf', warmPdf, await extractDocument(warmPdf, { name: 'warm-up.pdf' }));

  log('baseline: posting the same items to POST /ingest/bulk');
  const direct = await createMeasuredTenant(stack, ['iq:import']);
  const items = fileItems({ id: 'manual', name: 'manual.pdf' }, document).map((item) =>
    asSent(item, { integrationId: 'bench-files' }, 'low'),
  );
  const baselineStart = performance.now();
  const baseline = await ingestAll(stack, direct, items);
  const baselineSeconds = (performance.now() - baselineStart) / 1000;

  log(`upload: the ${document.pages}-page PDF`);
  const source = await filesSource(stack);
  const uploadMemory = memorySampler({ API: apiPid, worker: workerPid });
  const uploadStart = performance.now();
  const uploaded = await uploadAndWait(stack, source, 'manual.pdf', pdf, document);
  const uploadSeconds = (performance.now() - uploadStart) / 1000;
  const uploadPeaks = uploadMemory.stop();

  log(`large upload: ${largeMib} MiB of Markdown`);
  const large = Buffer.from('# Notes\n\n' + 'Vacuum reclaims storage occupied by dead tuples. '.repeat(Math.ceil((largeMib * MiB) / 50))).subarray(0, largeMib * MiB);
  const largeMemory = memorySampler({ API: apiPid });
  const largeStart = performance.now();
  const largeAnswer = await post(source, 'large.md', large);
  const largeSeconds = (performance.now() - largeStart) / 1000;
  const largePeaks = largeMemory.stop();
  const refused = await untilRead(source, largeAnswer.file.id);

  const ratio = baselineSeconds / uploadSeconds;
  const goal = (met: boolean) => (met ? 'met' : 'NOT met');
  const mb = (bytes: number) => round(bytes / 1e6, 1);
  console.log(`\nbench:files (${manual}, the first ${pageCount} pages by name, one PDF page each)`);
  console.table({
    profile: stack.profile,
    'PDF: size (MiB), pages, items': `${round(pdf.byteLength / MiB, 2)}, ${document.pages}, ${items.length}`,
    'baseline: bulk POST to all searchable (s)': round(baselineSeconds),
    'baseline: items/s': round(items.length / baselineSeconds, 2),
    'upload: POST answered (s)': round(uploaded.answeredSeconds, 2),
    'upload: POST to file ingested (s)': round(uploaded.readSeconds),
    'upload: POST to all searchable (s)': round(uploadSeconds),
    'upload: items/s': round(uploaded.items / uploadSeconds, 2),
    'ratio upload / baseline, items/s': round(ratio, 2),
    'failed items (baseline, upload)': `${baseline.failed}, ${uploaded.failed}`,
    'API resident memory: before, peak growth during the upload (MB; goal < 50)': `${mb(uploadPeaks.API!.before)}, ${mb(uploadPeaks.API!.growth)} (${goal(uploadPeaks.API!.growth < 50e6)})`,
    'worker resident memory: before, peak growth during the upload (MB)': `${mb(uploadPeaks.worker!.before)}, ${mb(uploadPeaks.worker!.growth)}`,
    [`large upload (${largeMib} MiB): POST answered (s), MiB/s`]: `${round(largeSeconds, 2)}, ${round(largeMib / largeSeconds, 1)}`,
    [`large upload: API peak growth (MB; goal < 50)`]: `${mb(largePeaks.API!.growth)} (${goal(largePeaks.API!.growth < 50e6)})`,
    'large upload: the worker refused it as': `${refused.error?.code} (${refused.error?.message})`,
  });
} finally {
  await stack.stop();
}

interface Source {
  asAdmin: Awaited<ReturnType<typeof measuredTenantAdmin>>;
  tenantId: string;
  connector: { id: string; integrationId: string };
}

async function filesSource(on: MeasuredStack): Promise<Source> {
  const tenant = await createMeasuredTenant(on, ['iq:read']);
  const asAdmin = await measuredTenantAdmin(on, tenant.tenantId);
  const connector = await asAdmin.request<Source['connector']>('POST', '/connectors/files', { name: 'Bench files' });
  return { asAdmin, tenantId: tenant.tenantId, connector };
}

/** Posts the file as a form does; the answer's body. */
async function post(source: Source, name: string, bytes: Uint8Array): Promise<{ file: { id: string } }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return source.asAdmin.request('POST', `/connectors/${source.connector.id}/files`, form);
}

/** The file once its latest upload was read (ingested or failed). */
async function untilRead(source: Source, fileId: string): Promise<{ status: string; ingested: { items: number; pages?: number } | null; error?: { code: string; message: string } }> {
  let file: any;
  await waitFor(async () => {
    file = await source.asAdmin.request('GET', `/connectors/${source.connector.id}/files/${fileId}`);
    return file.status === 'ingested' || file.status === 'failed';
  }, 250);
  return file;
}

/** Uploads the file and waits until its items (those of `document`, as read here) are searchable. */
async function uploadAndWait(on: MeasuredStack, source: Source, name: string, bytes: Uint8Array, document: ExtractedDocument) {
  const start = performance.now();
  const answer = await post(source, name, bytes);
  const answeredSeconds = (performance.now() - start) / 1000;
  const file = await untilRead(source, answer.file.id);
  const readSeconds = (performance.now() - start) / 1000;
  if (file.status !== 'ingested') throw new Error(`${name} was refused: ${JSON.stringify(file.error)}`);
  const items = fileItems({ id: answer.file.id, name }, document).map(({ externalId }) => ({
    integrationId: source.connector.integrationId,
    externalId,
  }));
  const failed = await waitUntilIngested(on, source.tenantId, items);
  return { answeredSeconds, readSeconds, items: items.length, failed };
}

/** Each process's resident memory sampled every 50 ms from now until `stop`: the peak's growth over the first sample. */
function memorySampler(pids: Record<string, number>) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, residentBytes(pid)]));
  const peak = { ...before };
  const timer = setInterval(() => {
    for (const [name, pid] of Object.entries(pids)) peak[name] = Math.max(peak[name]!, residentBytes(pid));
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Object.fromEntries(Object.keys(pids).map((name) => [name, { before: before[name]!, growth: peak[name]! - before[name]! }]));
    },
  };
}
