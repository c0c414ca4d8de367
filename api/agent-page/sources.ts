/**
 * The Sources view of the agent inbox page (served as `/agent/sources.js`, imported by app.ts the first
 * time the view is opened; for a tenant admin: an agent is told it needs that role): the tenant's connectors with their
 * syncs, refreshed every few seconds while one runs; a website's crawl counts and the pages it could
 * not read; Sync now, Crawl and allow deletions, Remove; a form that adds a website, with the
 * API's refusal said field by field beside it; and a files source's parts (source-files.ts: its files,
 * uploaded and deleted there, and the "Add files" form), refreshed while a file is read.
 * Everything from the API goes on the page with `textContent`.
 */

import { createFilePanels, isReading, type UploadedFile } from './source-files.js';
import type { ViewDeps } from './view-deps.js';

// The API's shapes as this view reads them (api/schemas/connectors.ts).
type CrawlCounts = Partial<Record<(typeof countRows)[number][0], number>> & { failedBy?: Record<string, number> };

interface SyncSummary {
  runId: string;
  startedAt: string;
  finishedAt: string;
  outcome: 'succeeded' | 'failed';
  sent: number;
  unchanged: number;
  deleted: number;
  error?: string;
  pages?: CrawlCounts;
}

interface CrawlFailure {
  url: string;
  reason: string;
  message: string;
  at: string;
}

export interface Connector {
  id: string;
  type: 'shop' | 'cms' | 'website' | 'files';
  name: string;
  /** null for files, which are never polled. */
  syncEveryMinutes: number | null;
  data: {
    startUrls?: string[];
    sitemaps?: string[];
    siteUrl?: string;
    adminUrl?: string;
    /** Files: an upload's bytes at most, and the source's files at most. */
    maxFileBytes?: number;
    maxFiles?: number;
  };
  sync: {
    state: 'idle' | 'running';
    running?: { runId: string; startedAt: string; sent: number; unchanged: number; pages?: CrawlCounts };
    last?: SyncSummary;
    failures?: CrawlFailure[];
    nextSyncAt: string | null;
  };
}

const typeWords: Record<string, string> = { website: 'Website', shop: 'Shop', cms: 'CMS site', files: 'Files' };

/** A crawl's page counts in words, in the API's order. */
const countRows = [
  ['found', 'Pages found'],
  ['fetched', 'Read'],
  ['unchanged', 'Unchanged since the last crawl'],
  ['sent', 'Sent to the knowledge base'],
  ['duplicates', 'Duplicates of another page'],
  ['noindex', 'Asking not to be indexed'],
  ['skippedByRobots', 'Kept out by robots.txt'],
  ['outOfScope', 'Redirected out of scope'],
  ['gone', 'Gone (404 or 410)'],
  ['notPages', 'Not pages (images, downloads)'],
  ['overCap', 'Over the page limit'],
  ['failed', 'Could not be read'],
] as const;

/** The form's fields by the API's paths, for saying its refusals in words. */
const fieldWords: Record<string, string> = {
  '/name': 'Name',
  '/syncEveryMinutes': 'Crawl every',
  '/data/startUrls': 'Start addresses',
  '/data/sitemaps': 'Sitemaps',
  '/data/include': 'Only paths',
  '/data/exclude': 'Leave out paths',
  '/data/maxPages': 'Most pages',
  '/data/concurrency': 'Requests at once',
  '/data/requestsPerSecond': 'Requests per second',
};

const schedules: [string, string][] = [
  ['1440', 'Every day'],
  ['360', 'Every 6 hours'],
  ['60', 'Every hour'],
  ['10080', 'Every week'],
];

/** How often the list is read again while a sync runs, and for how long after a button asks for one. */
const refreshMs = 3_000;
const settleMs = 20_000;

/** The shrink guard's advice names the API's flag: the page has a button for it. */
const shrinkAdvice = /sync with \{"confirmDeletions": true\}/;

export function createSourcesView({ api, el, showError, messageOf, detailsOf, time }: ViewDeps) {
  const root = el('section', 'sources');
  const list = el('div', 'source-list');
  const listNote = el('p', 'muted');
  const view = {
    connectors: [] as Connector[],
    shown: '',
    visible: false,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
    /** The latest read of the list: an earlier one that answers late changes nothing. */
    round: 0,
    busyUntil: 0,
    /** Connectors whose sync was asked for, with the last run they had then: "Starting…" until a new one shows. */
    requested: new Map<string, string | undefined>(),
    /** Connectors whose Remove asks to be confirmed. */
    confirming: new Set<string>(),
    /** Each files source's files, as last read. */
    files: new Map<string, UploadedFile[]>(),
  };
  const form = websiteForm();
  const filePanels = createFilePanels({ api, el, messageOf, detailsOf, time, render, changed, button, field });
  root.append(el('h2', '', 'Sources'), listNote, list, form.panel, filePanels.form.panel);

  /** Shown: reads the list, and keeps reading it while a sync runs. */
  async function open(): Promise<void> {
    view.visible = true;
    await refresh();
  }

  /** Hidden or signed out: no more reading. */
  function hide(): void {
    view.visible = false;
    clearTimeout(view.timer);
  }

  async function refresh(): Promise<void> {
    clearTimeout(view.timer);
    const round = ++view.round;
    try {
      const { connectors } = await api<{ connectors: Connector[] }>('GET', '/connectors');
      const files = new Map(await Promise.all(connectors.filter(({ type }) => type === 'files').map(filesOf)));
      if (round !== view.round) return;
      view.connectors = connectors;
      view.files = files;
      render();
    } catch (error) {
      if (round !== view.round) return;
      listNote.textContent = messageOf(error);
      // An agent is told the view needs the admin role; the forms would only be refused too.
      if ((error as { status?: number }).status === 403) form.panel.hidden = filePanels.form.panel.hidden = true;
    }
    const reading = [...view.files.values()].some(isReading);
    const busy =
      view.connectors.some((connector) => connector.sync.state === 'running') || reading || Date.now() < view.busyUntil;
    if (view.visible && busy) view.timer = setTimeout(() => void refresh(), refreshMs);
  }

  /** A files source's files; one that could not be read (removed meanwhile) keeps what was read before. */
  async function filesOf(connector: Connector): Promise<[string, UploadedFile[]]> {
    try {
      const { files } = await api<{ files: UploadedFile[] }>('GET', `/connectors/${encodeURIComponent(connector.id)}/files`);
      return [connector.id, files];
    } catch {
      return [connector.id, view.files.get(connector.id) ?? []];
    }
  }

  /** After a button: read again now, and every few seconds while the change takes effect. */
  function changed(): Promise<void> {
    view.busyUntil = Date.now() + settleMs;
    return refresh();
  }

  function render(): void {
    for (const [id, runId] of view.requested) {
      const connector = view.connectors.find((known) => known.id === id);
      if (!connector || connector.sync.state === 'running' || connector.sync.last?.runId !== runId) view.requested.delete(id);
    }
    filePanels.forgetGone(view.connectors);
    listNote.textContent = view.connectors.length ? '' : 'No sources yet: add a website or files below.';
    // The same list again (a poll between two changes) leaves the page as it is: nothing under the pointer moves.
    const shown = JSON.stringify([
      view.connectors,
      [...view.files],
      ...filePanels.shown(),
      [...view.requested],
      [...view.confirming],
    ]);
    if (shown === view.shown) return;
    view.shown = shown;
    list.replaceChildren(...view.connectors.map(connectorPanel));
  }

  function connectorPanel(connector: Connector): HTMLElement {
    const { sync } = connector;
    const box = el('section', 'panel source');
    box.dataset.connectorId = connector.id;
    const title = el('div', 'source-title');
    const files = view.files.get(connector.id) ?? [];
    const state =
      connector.type === 'files'
        ? filePanels.state(connector, files)
        : sync.state === 'running'
          ? el('span', 'badge state running', 'Running')
          : view.requested.has(connector.id)
            ? el('span', 'badge state running', 'Starting…')
            : el('span', 'badge state idle', 'Idle');
    title.append(el('h3', '', connector.name), el('span', 'badge', typeWords[connector.type] ?? connector.type), state);
    const head = el('div', 'panel-head');
    head.append(title, actions(connector));
    box.append(head);
    if (connector.type === 'files') {
      box.append(...filePanels.parts(connector, files));
      return box;
    }
    box.append(el('p', 'source-meta', `${addressesOf(connector)} · ${every(connector.syncEveryMinutes)}`));
    box.append(lastRun(connector));
    if (sync.running) box.append(el('p', 'source-line', `Running since ${time(sync.running.startedAt)}.`));
    box.append(el('p', 'source-line next', sync.nextSyncAt ? `Next sync: ${time(sync.nextSyncAt)}.` : 'No sync scheduled.'));
    if (connector.type === 'website') {
      const pages = sync.running?.pages ?? (sync.state === 'running' ? undefined : sync.last?.pages);
      if (pages) box.append(counts(pages, sync.running ? 'This crawl so far' : 'The last crawl'));
      if (sync.failures?.length) box.append(failures(sync.failures));
    }
    return box;
  }

  function lastRun(connector: Connector): HTMLElement {
    const last = connector.sync.last;
    if (!last) return el('p', 'source-line last', 'Not synced yet.');
    const box = el('div', `last ${last.outcome}`);
    const line = el('p', 'source-line');
    line.append(
      'Last sync: ',
      el('strong', 'outcome', last.outcome === 'succeeded' ? 'succeeded' : 'failed'),
      `, ${time(last.finishedAt)}: ${last.sent} sent, ${last.unchanged} unchanged, ${last.deleted} deleted.`,
    );
    box.append(line);
    if (last.error) box.append(el('p', 'source-error', last.error.replace(shrinkAdvice, 'press “Crawl and allow deletions”')));
    return box;
  }

  function actions(connector: Connector): HTMLElement {
    const box = el('div', 'actions');
    if (view.confirming.has(connector.id)) {
      box.append(el('span', 'confirm', `Remove “${connector.name}”? What it brought in stays in the knowledge base.`));
      box.append(
        button('Yes, remove', 'danger', () => remove(connector)),
        button('Cancel', 'quiet', async () => {
          view.confirming.delete(connector.id);
          render();
        }),
      );
      return box;
    }
    // A files source has nothing to sync: its files are read as they are uploaded.
    if (connector.type !== 'files') box.append(button('Sync now', '', () => sync(connector)));
    const last = connector.sync.last;
    if (connector.type === 'website' && last?.outcome === 'failed' && last.error && shrinkAdvice.test(last.error))
      box.append(button('Crawl and allow deletions', 'secondary', () => sync(connector, { confirmDeletions: true })));
    box.append(
      button('Remove', 'danger', async () => {
        view.confirming.add(connector.id);
        render();
      }),
    );
    return box;
  }

  async function sync(connector: Connector, body?: { confirmDeletions: true }): Promise<void> {
    await api('POST', `/connectors/${encodeURIComponent(connector.id)}/sync`, body);
    view.requested.set(connector.id, connector.sync.last?.runId);
    await changed();
  }

  async function remove(connector: Connector): Promise<void> {
    await api('DELETE', `/connectors/${encodeURIComponent(connector.id)}`);
    view.confirming.delete(connector.id);
    await changed();
  }

  /** A button that runs `action` once at a time, its failure said in the page's error line. */
  function button(text: string, className: string, action: () => Promise<void>): HTMLButtonElement {
    const node = el('button', className, text);
    node.type = 'button';
    node.addEventListener('click', async () => {
      node.disabled = true;
      showError('');
      try {
        await action();
      } catch (error) {
        showError(messageOf(error));
      } finally {
        node.disabled = false;
      }
    });
    return node;
  }

  function counts(pages: CrawlCounts, caption: string): HTMLElement {
    const table = el('table', 'figures counts');
    table.append(el('caption', '', caption));
    const body = el('tbody');
    for (const [key, words] of countRows) {
      const row = el('tr');
      row.dataset.count = key;
      const value = el('td', '', String(pages[key] ?? 0));
      if (key === 'failed' && pages.failedBy && Object.keys(pages.failedBy).length) {
        const reasons = Object.entries(pages.failedBy).map(([reason, times]) => `${reason}: ${times}`);
        value.append(el('span', 'muted by', ` (${reasons.join(', ')})`));
      }
      row.append(el('th', '', words), value);
      body.append(row);
    }
    table.append(body);
    return table;
  }

  function failures(rows: CrawlFailure[]): HTMLElement {
    const box = el('div', 'failures');
    box.append(el('h4', '', `Pages that could not be read (${rows.length}, newest first)`));
    const table = el('table', 'figures');
    const headRow = el('tr');
    for (const header of ['Address', 'Reason', 'What happened', 'When']) headRow.append(el('th', '', header));
    const thead = el('thead');
    thead.append(headRow);
    const body = el('tbody');
    for (const failure of rows) {
      const row = el('tr');
      row.append(
        el('td', 'address', failure.url),
        el('td', 'reason', failure.reason),
        el('td', '', failure.message),
        el('td', 'when', time(failure.at)),
      );
      body.append(row);
    }
    table.append(thead, body);
    box.append(table);
    return box;
  }

  /** The "Add a website" form: one address or pattern per line, the rest under "More settings". */
  function websiteForm() {
    const panel = el('section', 'panel add-website');
    panel.append(el('h3', '', 'Add a website'));
    const node = el('form', 'source-form');
    node.noValidate = true;
    const name = el('input');
    name.name = 'name';
    name.maxLength = 200;
    const lines = {
      startUrls: textArea('startUrls', 'https://www.example.com/help/'),
      sitemaps: textArea('sitemaps', 'https://www.example.com/sitemap.xml'),
      include: textArea('include', '/help/'),
      exclude: textArea('exclude', '/help/archive/'),
    };
    const schedule = el('select');
    schedule.name = 'syncEveryMinutes';
    for (const [value, words] of schedules) schedule.append(new Option(words, value));
    const numbers = {
      maxPages: numberInput('maxPages', '10000', 1, 10_000, 1),
      concurrency: numberInput('concurrency', '2', 1, 4, 1),
      requestsPerSecond: numberInput('requestsPerSecond', '2', 0.1, 10, 0.1),
    };
    const more = el('details', 'more');
    more.append(
      el('summary', '', 'More settings'),
      field('Most pages a crawl reads', numbers.maxPages),
      field('Requests at once', numbers.concurrency),
      field('Requests per second', numbers.requestsPerSecond),
    );
    const problems = el('div', 'problems');
    problems.setAttribute('role', 'alert');
    problems.hidden = true;
    const submit = el('button', '', 'Add website');
    submit.type = 'submit';
    node.append(
      field('Name', name),
      field('Start addresses, one a line', lines.startUrls),
      field('Sitemaps, one a line (optional)', lines.sitemaps),
      field('Only paths matching, one a line (optional)', lines.include),
      field('Leave out paths matching, one a line (optional)', lines.exclude),
      field('Crawl', schedule),
      more,
      problems,
      submit,
    );
    panel.append(node);

    /** Each field by its path in the API's body, to mark the one a refusal names. */
    const controls: Record<string, HTMLElement> = {
      '/name': name,
      '/syncEveryMinutes': schedule,
      ...Object.fromEntries(Object.entries({ ...lines, ...numbers }).map(([key, control]) => [`/data/${key}`, control])),
    };

    node.addEventListener('submit', async (event) => {
      event.preventDefault();
      submit.disabled = true;
      problems.hidden = true;
      for (const control of node.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
      const read = Object.fromEntries(Object.entries(lines).map(([key, area]) => [key, linesOf(area)])) as Record<
        keyof typeof lines,
        { values: string[]; lineNumbers: number[] }
      >;
      const data: Record<string, unknown> = Object.fromEntries(Object.entries(read).map(([key, { values }]) => [key, values]));
      for (const [key, input] of Object.entries(numbers)) if (input.value.trim()) data[key] = Number(input.value);
      try {
        await api('POST', '/connectors/website', { name: name.value.trim(), data, syncEveryMinutes: Number(schedule.value) });
        node.reset();
        await changed();
      } catch (error) {
        problems.replaceChildren(...refusal(error, read));
        problems.hidden = false;
      } finally {
        submit.disabled = false;
      }
    });

    /** The API's refusal in words: each problem named by its field (and line), else its message. */
    function refusal(error: unknown, read: Record<string, { values: string[]; lineNumbers: number[] }>): HTMLElement[] {
      const said = new Map<string, string[]>();
      let unplaced = false;
      for (const { path = '', message } of detailsOf(error)) {
        const [, field = '', index] = /^(\/(?:data\/)?\w+)(?:\/(\d+))?$/.exec(path) ?? [];
        const words = fieldWords[field];
        if (!words) {
          unplaced = true;
          continue;
        }
        controls[field]?.setAttribute('aria-invalid', 'true');
        const linesRead = read[field.replace('/data/', '')];
        const value = index === undefined ? undefined : linesRead?.values[Number(index)];
        const where =
          linesRead && index !== undefined
            ? `${words}, line ${linesRead.lineNumbers[Number(index)] ?? Number(index) + 1}${value ? ` (${value})` : ''}`
            : words;
        said.set(where, [...(said.get(where) ?? []), message]);
      }
      const items = [...said].map(([where, messages]) => el('li', '', `${where}: ${[...new Set(messages)].join('; ')}.`));
      if (unplaced || items.length === 0) items.unshift(el('li', '', messageOf(error)));
      const box = el('ul');
      box.append(...items);
      return [el('p', 'problems-head', 'The website was not added:'), box];
    }

    function textArea(key: string, example: string): HTMLTextAreaElement {
      const area = el('textarea');
      area.name = key;
      area.rows = 3;
      area.placeholder = example;
      return area;
    }

    function numberInput(key: string, placeholder: string, min: number, max: number, step: number): HTMLInputElement {
      const input = el('input');
      input.type = 'number';
      input.name = key;
      input.placeholder = `${placeholder} (default)`;
      input.min = String(min);
      input.max = String(max);
      input.step = String(step);
      return input;
    }

    return { panel };
  }

  function field(text: string, control: HTMLElement): HTMLLabelElement {
    const label = el('label', '', text);
    label.append(control);
    return label;
  }

  return { element: root, open, hide };
}

export type SourcesView = ReturnType<typeof createSourcesView>;

/** A textarea's non-empty lines, trimmed, with where each stood (1-based), to name a refused one. */
function linesOf(area: HTMLTextAreaElement): { values: string[]; lineNumbers: number[] } {
  const values: string[] = [];
  const lineNumbers: number[] = [];
  area.value.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    values.push(line.trim());
    lineNumbers.push(index + 1);
  });
  return { values, lineNumbers };
}

/** Where a connector reads from: a website's first start address (or sitemap), a site's or shop's address. */
function addressesOf(connector: Connector): string {
  const { startUrls = [], sitemaps = [], siteUrl, adminUrl } = connector.data;
  const all = [...startUrls, ...sitemaps];
  if (all.length) return all.length > 1 ? `${all[0]} and ${all.length - 1} more` : all[0]!;
  return siteUrl ?? adminUrl ?? '';
}

function every(minutes: number | null): string {
  if (minutes === null) return 'never synced';
  if (minutes % 1440 === 0) return minutes === 1440 ? 'every day' : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'every hour' : `every ${minutes / 60} hours`;
  return `every ${minutes} minutes`;
}
