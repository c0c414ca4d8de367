import test from 'ava';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { connectingTenant, sourcesOfOrigin, uploadFile, type ConnectingTenant } from '#testing/connectors.js';
import { makePdf, pdfOfPages } from '#testing/documents.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';

/*
 * Files uploaded by hand, end to end: multipart uploads to the real API, staged in Redis, read by the
 * real worker's documents thread, sent through the ingestion API into Weaviate, through Temporal. The
 * PDFs and Word files are written by pdfkit and docx, as an office would write them.
 */

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack();
});
test.after.always(async () => {
  await stack?.close();
});

interface Source {
  tenant: ConnectingTenant;
  connector: { id: string; integrationId: string };
}

async function filesSource(): Promise<Source> {
  const tenant = await connectingTenant(stack.api);
  const created = await tenant.asAdmin('POST', '/connectors/files', { name: 'Manuals' });
  if (created.status !== 201) throw new Error(`no files source: ${JSON.stringify(created.body)}`);
  return { tenant, connector: created.body };
}

/** Posts `bytes` as a browser's form would: the file in a part named `file`, with its name (and type). */
const upload = ({ tenant, connector }: Source, name: string, bytes: Uint8Array | string, type?: string) =>
  uploadFile(stack.api, tenant.userHeaders, connector.id, { name, bytes, ...(type ? { type } : {}) });

async function send(tenant: ConnectingTenant, path: string, init: RequestInit & { duplex?: 'half' }) {
  const response = await fetch(`${stack.api.url}${path}`, { method: 'POST', ...init, headers: { ...tenant.userHeaders, ...init.headers } });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const fileOf = (source: Source, fileId: string) => source.tenant.asAdmin('GET', `/connectors/${source.connector.id}/files/${fileId}`);

/** The file once its latest upload was read, in or out. */
async function settled(source: Source, fileId: string) {
  const { body } = await eventually(
    () => fileOf(source, fileId),
    ({ body }) => body.status === 'ingested' || body.status === 'failed',
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  return body as Record<string, any>;
}

/** The file's items in the index, once there are `count` of them. */
const itemsOf = (source: Source, fileId: string, count: number) =>
  eventually(
    async () => (await sourcesOfOrigin(stack.api, source.tenant.tenant.id, source.tenant.kb, `${source.connector.integrationId}/${fileId}`)).sort(),
    (ids) => ids.length === count,
    { timeoutMs: 60_000, intervalMs: 250 },
  );

async function search(source: Source, query: string) {
  const { tenant } = source;
  const found = await stack.api.request('GET', `/knowledge-bases/${tenant.kb}/search?q=${encodeURIComponent(query)}&limit=3`, {
    headers: tenant.headers,
  });
  return found.body.results as Array<Record<string, any>>;
}

const pages = [
  'Unpacking. Lift the heat pump out of its crate with two people; it weighs 48 kg.',
  'Placing. Keep 30 cm free on each side of the pump so that air circulates around the compressor.',
  'Wiring. A qualified electrician connects the pump to a dedicated 16 A circuit breaker.',
  'Descaling. Flush the condenser with citric acid every spring, before the heating season ends.',
];

test('a PDF becomes one item per page, cited by the file name and page; the same bytes again change nothing', async (t) => {
  const source = await filesSource();
  const bytes = await pdfOfPages(pages);
  const first = await upload(source, 'heat-pump.pdf', bytes, 'application/pdf');
  t.is(first.status, 202, JSON.stringify(first.body));
  t.like(first.body, { outcome: 'new', file: { name: 'heat-pump.pdf', size: bytes.byteLength, status: 'queued', ingested: null } });
  const fileId = first.body.file.id as string;

  const file = await settled(source, fileId);
  t.like(file, { status: 'ingested', ingested: { kind: 'pdf', items: 4, pages: 4, sha256: file.sha256 } });
  t.false('stagingId' in file, 'where the upload waited is not shown');
  t.deepEqual(await itemsOf(source, fileId, 4), [1, 2, 3, 4].map((page) => `${fileId}#page-${page}`));
  const [hit] = await eventually(
    () => search(source, 'citric acid condenser'),
    (results) => results.length > 0,
    { timeoutMs: 30_000, intervalMs: 250 },
  );
  t.like(hit, { externalId: `${fileId}#page-4`, title: 'heat-pump.pdf — page 4' });

  const again = await upload(source, 'heat-pump.pdf', bytes, 'application/pdf');
  t.is(again.status, 200);
  t.like(again.body, { outcome: 'unchanged', file: { id: fileId, status: 'ingested', uploadedAt: file.uploadedAt } });
  const renamed = await upload(source, 'copy of heat-pump.pdf', bytes);
  t.like(renamed.body, { outcome: 'unchanged', file: { id: fileId, name: 'heat-pump.pdf' } }, 'the bytes are known by their hash, whatever the name');

  const { body: listed } = await source.tenant.asAdmin('GET', `/connectors/${source.connector.id}/files`);
  t.deepEqual(
    listed.files.map((one: { id: string }) => one.id),
    [fileId],
  );
  const { body: connector } = await source.tenant.asAdmin('GET', `/connectors/${source.connector.id}`);
  t.like(connector, { type: 'files', syncEveryMinutes: null, files: { ingested: 1, queued: 0, failed: 0 }, sync: { nextSyncAt: null } });
  t.is((await source.tenant.asAdmin('POST', `/connectors/${source.connector.id}/sync`)).status, 409);
});

test('a new version replaces the old one: pages it no longer has leave, and a refused version leaves the old one in place', async (t) => {
  const source = await filesSource();
  const first = await upload(source, 'heat-pump.pdf', await pdfOfPages(pages));
  const fileId = first.body.file.id as string;
  await settled(source, fileId);
  await itemsOf(source, fileId, 4);

  const shorter = await upload(source, 'heat-pump.pdf', await pdfOfPages([pages[0]!, 'Placing. Mount the pump on the wall bracket.']));
  t.is(shorter.status, 202);
  t.like(shorter.body, { outcome: 'version', file: { id: fileId, status: 'queued', ingested: { items: 4 } } });
  t.like(await settled(source, fileId), { status: 'ingested', ingested: { items: 2, pages: 2 } });
  t.deepEqual(await itemsOf(source, fileId, 2), [`${fileId}#page-1`, `${fileId}#page-2`]);
  const placing = await eventually(
    () => search(source, 'wall bracket'),
    (results) => results[0]?.externalId === `${fileId}#page-2`,
    { timeoutMs: 30_000, intervalMs: 250 },
  );
  t.is(placing[0]!.externalId, `${fileId}#page-2`, 'page 2 holds the new text');

  const locked = await upload(source, 'heat-pump.pdf', await makePdf((doc) => doc.text('Secret'), { userPassword: 'pump' }));
  t.is(locked.status, 202);
  t.like(locked.body, { outcome: 'version', file: { id: fileId } });
  const refused = await settled(source, fileId);
  t.like(refused, { status: 'failed', error: { code: 'encrypted' }, ingested: { items: 2 } });
  t.regex(refused.error.message, /password/i);
  t.deepEqual(await itemsOf(source, fileId, 2), [`${fileId}#page-1`, `${fileId}#page-2`], 'the version before stays');
});

test('a Word document becomes one item per section, titled by the file name and heading', async (t) => {
  const source = await filesSource();
  const docx = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Service guide', heading: HeadingLevel.TITLE }),
            new Paragraph({ text: 'Warranty', heading: HeadingLevel.HEADING_2 }),
            new Paragraph('The warranty covers the compressor for seven years from the date of installation.'),
            new Paragraph({ text: 'Yearly service', heading: HeadingLevel.HEADING_2 }),
            new Paragraph('A technician checks the refrigerant pressure and cleans the evaporator fins once a year.'),
          ],
        },
      ],
    }),
  );
  const uploaded = await upload(source, 'Service guide.docx', docx);
  const fileId = uploaded.body.file.id as string;
  t.like(await settled(source, fileId), { status: 'ingested', ingested: { kind: 'docx' } });
  const hit = await eventually(
    () => search(source, 'refrigerant pressure evaporator fins'),
    (results) => results.length > 0,
    { timeoutMs: 30_000, intervalMs: 250 },
  );
  t.is(hit[0]!.title, 'Service guide.docx — Yearly service');
});

test('files that cannot be read end failed with the reason, and nothing enters the knowledge base', async (t) => {
  const source = await filesSource();
  const scanned = await makePdf((doc) => doc.rect(50, 50, 200, 100).fill('#333'));
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  const cases: Array<[name: string, bytes: Uint8Array | string, code: string, words: RegExp]> = [
    ['scan.pdf', scanned, 'no_text', /scanned/],
    ['report.pdf', 'Plain words, not a PDF.', 'type_mismatch', /report\.pdf is not a PDF/],
    ['photo.png', png, 'unsupported_type', /PNG/],
    ['broken.pdf', '%PDF-1.7\n1 0 obj << /Type /Catalog >>\n', 'corrupt', /./],
  ];
  for (const [name, bytes, code, words] of cases) {
    const uploaded = await upload(source, name, bytes);
    t.is(uploaded.status, 202, name);
    const file = await settled(source, uploaded.body.file.id);
    t.like(file, { status: 'failed', ingested: null, error: { code } }, name);
    t.regex(file.error.message, words, name);
  }
  t.deepEqual(await sourcesOfOrigin(stack.api, source.tenant.tenant.id, source.tenant.kb, source.connector.integrationId), []);
});

test('uploads refused at the door: each with a clear error, and nothing recorded', async (t) => {
  const source = await filesSource();
  const path = `/connectors/${source.connector.id}/files`;
  const refusals = [
    [await upload(source, 'empty.md', ''), 400, 'empty_file'],
    [await send(source.tenant, path, { body: JSON.stringify({ file: 'x' }), headers: { 'content-type': 'application/json' } }), 415, 'unsupported_media_type'],
    [await send(source.tenant, path, { body: formOf({ other: 'x' }) }), 400, 'invalid_payload'],
    [await send(source.tenant, path, { body: formOf({ file: ['a.md', 'A'], more: ['b.md', 'B'] }) }), 400, 'invalid_payload'],
    [await upload(source, '', 'no name'), 400, 'invalid_payload'],
  ] as const;
  for (const [answer, status, code] of refusals) {
    t.is(answer.status, status, JSON.stringify(answer.body));
    t.is(answer.body.error?.code, code);
  }

  // Declared larger than the limit: refused before a byte is read. Streamed without a length: refused
  // as it passes the limit (25 MiB and a byte).
  const declared = await upload(source, 'big.txt', new Uint8Array(26 * 1_048_576));
  t.is(declared.status, 413);
  t.like(declared.body.error, { code: 'file_too_large' });
  t.regex(declared.body.error.message, /25 MiB/);
  const form = new Response(formOf({ file: ['big.txt', new Uint8Array(25 * 1_048_576 + 1)] }));
  const streamed = await send(source.tenant, path, {
    body: form.body,
    headers: { 'content-type': form.headers.get('content-type')! },
    duplex: 'half',
  });
  t.is(streamed.status, 413);
  t.is(streamed.body.error?.code, 'file_too_large');

  const { body } = await source.tenant.asAdmin('GET', path);
  t.deepEqual(body.files, []);
  const staged = await stack.api.redis.keys(`${stack.api.config.redis.prefix}:connector:${source.connector.id}:staged:*`);
  t.deepEqual(staged, [], 'nothing refused is left staged');
});

test('a deleted file leaves the knowledge base and the list', async (t) => {
  const source = await filesSource();
  const uploaded = await upload(source, 'notes.md', '# Notes\n\n## Filters\n\nRinse the filters under warm water every month.\n');
  const fileId = uploaded.body.file.id as string;
  t.like(await settled(source, fileId), { status: 'ingested', ingested: { kind: 'markdown' } });
  await itemsOf(source, fileId, 1);

  const removed = await source.tenant.asAdmin('DELETE', `/connectors/${source.connector.id}/files/${fileId}`);
  t.is(removed.status, 202);
  t.is(removed.body.status, 'removing');
  t.is((await fileOf(source, fileId)).status, 404);
  t.deepEqual(await itemsOf(source, fileId, 0), []);
  await eventually(
    () => stack.api.redis.hLen(`${stack.api.config.redis.prefix}:connector:${source.connector.id}:files`),
    (count) => count === 0,
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  const again = await upload(source, 'notes.md', '# Notes\n\n## Filters\n\nRinse the filters under warm water every month.\n');
  t.like(again.body, { outcome: 'new' }, 'a file deleted can be uploaded again');
  t.not(again.body.file.id, fileId);
});

test('an upload taken while no worker runs is read once one is back', async (t) => {
  const source = await filesSource();
  await stack.stopWorker();
  try {
    const uploaded = await upload(source, 'late.md', '# Late\n\nThe descaling light blinks amber when the tank needs citric acid.\n');
    t.is(uploaded.status, 202);
    t.is((await fileOf(source, uploaded.body.file.id)).body.status, 'queued');
    await stack.startWorker();
    t.like(await settled(source, uploaded.body.file.id), { status: 'ingested' });
  } finally {
    await stack.startWorker();
  }
});

/** A multipart form of text fields and files (`[name, bytes]`). */
function formOf(parts: Record<string, string | [name: string, bytes: Uint8Array | string]>): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(field, value);
    else form.append(field, new Blob([typeof value[1] === 'string' ? value[1] : new Uint8Array(value[1])]), value[0]);
  }
  return form;
}
