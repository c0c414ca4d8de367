/**
 * A files source's parts in the Sources view (sources.ts imports this module; the browser fetches it
 * as `/agent/source-files.js`): its files in a table, each deleted by its own button; the upload
 * control, each file chosen sent as `multipart/form-data` and its outcome or refusal said beside the
 * control; and the "Add files" form. Everything from the API goes on the page with `textContent`.
 */
import type { ViewDeps } from './view-deps.js';

/** A files source as these parts read it (a connector of `GET /connectors`). */
interface FilesSource {
  id: string;
  /** An upload's bytes at most, and the source's files at most. */
  data: { maxFileBytes?: number; maxFiles?: number };
}

// The API's shapes as this view reads them (api/schemas/connectors.ts).
type FileStatus = 'queued' | 'reading' | 'ingested' | 'failed' | 'removing';

/** A file of a files source (`GET /connectors/{id}/files`). */
export interface UploadedFile {
  id: string;
  name: string;
  size: number;
  sha256: string;
  contentType: string | null;
  uploadedAt: string;
  status: FileStatus;
  /** The version the knowledge base holds (while a new one is read, or after it failed: the one before). */
  ingested: { sha256: string; kind: string; items: number; pages?: number; ingestedAt: string } | null;
  error?: { code: string; message: string; at: string };
}

/** `POST /connectors/{id}/files`: 202 `new` or `version`, 200 `unchanged`. */
interface UploadAnswer {
  outcome: 'new' | 'version' | 'unchanged';
  file: UploadedFile;
}

/** What became of one file chosen in the upload control: on its way, an outcome of the API's, or refused. */
interface UploadNote {
  name: string;
  text: string;
  state: 'sending' | UploadAnswer['outcome'] | 'refused';
}

/** What the files parts need from the page and from the view that shows them. */
export interface FilePanelsDeps extends Pick<ViewDeps, 'api' | 'el' | 'messageOf' | 'detailsOf' | 'time'> {
  /** Draws the view again from what it holds (this module's upload notes included). */
  render(): void;
  /** After a change: reads the list again now, and every few seconds while the change takes effect. */
  changed(): Promise<void>;
  /** The view's button: runs `action` once at a time, its failure said in the page's error line. */
  button(text: string, className: string, action: () => Promise<void>): HTMLButtonElement;
  /** The view's labelled form control. */
  field(text: string, control: HTMLElement): HTMLLabelElement;
}

/** A file's status in words, and what its bytes were read as. */
const fileStatusWords: Record<FileStatus, string> = {
  queued: 'Waiting to be read',
  reading: 'Being read',
  ingested: 'In the knowledge base',
  failed: 'Could not be read',
  removing: 'Being removed',
};
const kindWords: Record<string, string> = { pdf: 'PDF', docx: 'Word', html: 'HTML', markdown: 'Markdown', text: 'Text' };

/** What an accepted upload did, in words. */
const outcomeWords: Record<UploadAnswer['outcome'], string> = {
  new: 'added: on its way into the knowledge base',
  version: 'new version: it replaces the one before once read',
  unchanged: 'unchanged: this file is already there',
};

/** What the upload control offers in the picker (the API reads the kind from the bytes, whatever the name). */
const uploadAccept = '.pdf,.docx,.html,.htm,.md,.markdown,.txt,application/pdf,text/html,text/markdown,text/plain';

/** Whether a files source still has a file waiting to be read or being read (the view keeps reading the list). */
export function isReading(files: UploadedFile[]): boolean {
  return files.some(({ status }) => status === 'queued' || status === 'reading');
}

export function createFilePanels({ api, el, messageOf, detailsOf, time, render, changed, button, field }: FilePanelsDeps) {
  /** Each files source's latest uploads from this page: what became of each file chosen. */
  const uploads = new Map<string, UploadNote[]>();
  /** Files sources whose chosen files are still being sent. */
  const uploading = new Set<string>();
  const form = filesSourceForm();

  /** A files source's state badge: uploading from this page, its files being read, or idle. */
  function state(connector: FilesSource, files: UploadedFile[]): HTMLElement {
    return uploading.has(connector.id)
      ? el('span', 'badge state running', 'Uploading…')
      : isReading(files)
        ? el('span', 'badge state running', 'Reading')
        : el('span', 'badge state idle', 'Idle');
  }

  /** Forgets the upload notes of sources no longer listed (unless their files are still being sent). */
  function forgetGone(connectors: Array<Pick<FilesSource, 'id'>>): void {
    for (const id of uploads.keys()) if (!uploading.has(id) && !connectors.some((known) => known.id === id)) uploads.delete(id);
  }

  /** What these parts show beyond the list, for the view's "same as before" check. */
  function shown(): unknown[] {
    return [[...uploads], [...uploading]];
  }

  /**
   * A files source's panel below its title: its line, its files (or a word that it has none), its upload
   * control, and what became of its latest uploads.
   */
  function parts(connector: FilesSource, files: UploadedFile[]): HTMLElement[] {
    const parts: HTMLElement[] = [
      el('p', 'source-meta', filesMeta(connector, files)),
      files.length ? filesTable(connector, files) : el('p', 'source-line muted', 'No files yet: upload some below.'),
      uploadControl(connector),
    ];
    const notes = uploads.get(connector.id);
    if (notes?.length) parts.push(uploadNotes(notes));
    return parts;
  }

  function filesTable(connector: FilesSource, files: UploadedFile[]): HTMLElement {
    const table = el('table', 'figures files');
    const headRow = el('tr');
    for (const header of ['File', 'Size', 'Status', 'In the knowledge base', 'Uploaded', ''])
      headRow.append(el('th', '', header));
    const thead = el('thead');
    thead.append(headRow);
    const body = el('tbody');
    for (const file of files) {
      const row = el('tr');
      row.dataset.fileId = file.id;
      row.dataset.status = file.status;
      const held = el('td', 'held');
      if (file.status === 'failed' && file.error) held.append(el('span', 'file-error', file.error.message));
      if (file.ingested) {
        const what = ingestedWords(file.ingested);
        held.append(file.status === 'failed' ? el('span', 'muted', ` The version before stays: ${what}.`) : what);
      }
      const remove = el('td', 'file-actions');
      remove.append(button('Delete', 'danger', () => deleteFile(connector, file)));
      row.append(
        el('td', 'name', file.name),
        el('td', 'size', bytes(file.size)),
        el('td', `file-status ${file.status}`, fileStatusWords[file.status] ?? file.status),
        held,
        el('td', 'when', time(file.uploadedAt)),
        remove,
      );
      body.append(row);
    }
    table.append(thead, body);
    return table;
  }

  /** `<input type=file multiple>`: the files chosen are sent at once, one request each. */
  function uploadControl(connector: FilesSource): HTMLElement {
    const picker = el('input');
    picker.type = 'file';
    picker.name = 'file';
    picker.multiple = true;
    picker.accept = uploadAccept;
    picker.disabled = uploading.has(connector.id);
    picker.addEventListener('change', () => void upload(connector, [...(picker.files ?? [])], picker));
    const label = el('label', 'upload', 'Upload PDF, Word (.docx), HTML, Markdown or text files');
    label.append(picker);
    return label;
  }

  function uploadNotes(notes: UploadNote[]): HTMLElement {
    const box = el('ul', 'upload-notes');
    box.setAttribute('role', 'status');
    for (const note of notes) {
      const item = el('li', `upload-note ${note.state}`);
      item.append(el('span', 'name', note.name), `: ${note.text}`);
      box.append(item);
    }
    return box;
  }

  /** Sends the chosen files one after the other, saying what became of each as it is answered. */
  async function upload(connector: FilesSource, chosen: File[], picker: HTMLInputElement): Promise<void> {
    if (!chosen.length || uploading.has(connector.id)) return;
    const notes: UploadNote[] = chosen.map(({ name }) => ({ name, text: 'uploading…', state: 'sending' }));
    uploads.set(connector.id, notes);
    uploading.add(connector.id);
    render();
    for (const [index, file] of chosen.entries()) {
      notes[index] = await uploadFile(connector, file);
      // The last answer frees the control in the same render that says it.
      if (index === chosen.length - 1) uploading.delete(connector.id);
      render();
      // Read again at once: the new file shows in the list, and is followed while it is read.
      void changed();
    }
    picker.value = '';
  }

  async function uploadFile(connector: FilesSource, file: File): Promise<UploadNote> {
    const { name } = file;
    const limit = connector.data.maxFileBytes;
    if (limit && file.size > limit)
      return { name, text: `refused: the file is larger than the limit of ${bytes(limit)}.`, state: 'refused' };
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const { outcome, file: kept } = await api<UploadAnswer>(
        'POST',
        `/connectors/${encodeURIComponent(connector.id)}/files`,
        form,
      );
      const as = outcome === 'unchanged' && kept.name !== name ? ` (as ${kept.name})` : '';
      return { name, text: `${outcomeWords[outcome] ?? outcome}${as}`, state: outcome };
    } catch (error) {
      return { name, text: `refused: ${messageOf(error)}`, state: 'refused' };
    }
  }

  async function deleteFile(connector: FilesSource, file: UploadedFile): Promise<void> {
    await api('DELETE', `/connectors/${encodeURIComponent(connector.id)}/files/${encodeURIComponent(file.id)}`);
    await changed();
  }

  /** The "Add files" form: a name; the files are uploaded to the source once it is listed. */
  function filesSourceForm() {
    const panel = el('section', 'panel add-files');
    panel.append(
      el('h3', '', 'Add files'),
      el(
        'p',
        'muted',
        'A source of files uploaded here (PDF, Word, HTML, Markdown, text), each read into the knowledge base section by section.',
      ),
    );
    const node = el('form', 'source-form files-form');
    node.noValidate = true;
    const name = el('input');
    name.name = 'name';
    name.maxLength = 200;
    const problems = el('div', 'problems');
    problems.setAttribute('role', 'alert');
    problems.hidden = true;
    const submit = el('button', '', 'Add files source');
    submit.type = 'submit';
    node.append(field('Name', name), submit, problems);
    panel.append(node);

    node.addEventListener('submit', async (event) => {
      event.preventDefault();
      submit.disabled = true;
      problems.hidden = true;
      name.removeAttribute('aria-invalid');
      try {
        await api('POST', '/connectors/files', { name: name.value.trim() });
        node.reset();
        await changed();
      } catch (error) {
        const named = detailsOf(error).filter(({ path }) => path === '/name');
        if (named.length) name.setAttribute('aria-invalid', 'true');
        const said = named.length ? named.map(({ message }) => `Name: ${message}.`) : [messageOf(error)];
        const box = el('ul');
        box.append(...said.map((text) => el('li', '', text)));
        problems.replaceChildren(el('p', 'problems-head', 'The files source was not added:'), box);
        problems.hidden = false;
      } finally {
        submit.disabled = false;
      }
    });

    return { panel };
  }

  return { form, state, forgetGone, shown, parts };
}

export type FilePanels = ReturnType<typeof createFilePanels>;

/** A files source in a line: how many files, and the limits of an upload. */
function filesMeta(connector: FilesSource, files: UploadedFile[]): string {
  const { maxFileBytes, maxFiles } = connector.data;
  const count = files.length === 1 ? '1 file' : `${files.length} files`;
  const limits = [
    maxFileBytes ? `up to ${bytes(maxFileBytes)} each` : '',
    maxFiles ? `at most ${maxFiles.toLocaleString('en')} files` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `Uploaded files · ${count}${limits ? ` · ${limits}` : ''}`;
}

/** What a file became: its kind, its items (one per section, one per page of a PDF) and a PDF's pages. */
function ingestedWords(ingested: NonNullable<UploadedFile['ingested']>): string {
  const items = ingested.items === 1 ? '1 item' : `${ingested.items} items`;
  const pages = ingested.pages === undefined ? '' : ingested.pages === 1 ? ', 1 page' : `, ${ingested.pages} pages`;
  return `${kindWords[ingested.kind] ?? ingested.kind}: ${items}${pages}`;
}

/** A size as people read it: bytes, KiB, MiB. */
function bytes(size: number): string {
  if (size < 1024) return `${size} B`;
  const [value, unit] = size < 1_048_576 ? [size / 1024, 'KiB'] : [size / 1_048_576, 'MiB'];
  return `${value.toFixed(value < 10 && !Number.isInteger(value) ? 1 : 0)} ${unit}`;
}
