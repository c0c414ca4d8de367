/**
 * The Insights view of the agent inbox page (served as `/agent/insights.js`, imported by app.ts):
 * for a tenant admin, one operator's figures over a date range from `GET /insights/reports`, as
 * cards, a chart per day and tables, each table with its CSV download; and the content gaps from
 * `GET /insights/content-gaps`, where a cluster can be marked addressed by an article. Like the rest
 * of the page, everything from the API goes on the page with `textContent` or as SVG attributes.
 */

import type { ViewDeps } from './view-deps.js';

/** What the view needs from the page: its API call (with the user token), its element builder, and a download. */
export interface InsightsDeps extends Pick<ViewDeps, 'api' | 'el' | 'showError' | 'messageOf'> {
  /** The same request, answered as a file (CSV). */
  download(path: string): Promise<Blob>;
}

// The API's shapes as this view reads them (api/schemas/insights-*.ts).
interface Operator {
  id: string;
  name: string;
}

interface DayRow {
  day: string;
  /** Started that day. */
  total: number;
  closed: number;
  resolved: number;
  handedOff: number;
  abandoned: number;
}

export interface Report {
  from: string;
  to: string;
  conversations: { total: number; byChannel: Record<string, number>; byDay: DayRow[] };
  outcomes: {
    closed: number;
    resolved: number;
    handedOff: number;
    abandoned: number;
    resolutionRate: number | null;
    handoffRate: number | null;
  };
  handoffReasons: Record<'visitor' | 'ai' | 'agent', number>;
  firstAgentReply: { count: number; medianSeconds: number | null };
  feedback: { up: number; down: number; shareUp: number | null };
  satisfaction: { count: number; average: number | null; distribution: { score: number; count: number }[] };
  topSources: { key: string; title: string | null; citations: number }[];
}

export interface GapCluster {
  id: string;
  count: number;
  representative: string;
  examples: string[];
  closestSources: { key: string; title: string }[];
  reasons: { unknown: number; ratedDown: number };
  lastAskedAt: string;
  addressed: {
    articleId: string | null;
    sourceKey: string | null;
    note: string | null;
    addressedAt: string;
    by: { name: string };
    askedSince: number;
  } | null;
}

const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);
const dayIso = (at: Date) => at.toISOString().slice(0, 10);

export function createInsightsView({ api, download, el, showError, messageOf }: InsightsDeps) {
  const root = el('section', 'insights');
  const form = el('form', 'insights-controls');
  const operator = el('select');
  const from = el('input');
  const to = el('input');
  const show = el('button', '', 'Show');
  const body = el('div', 'insights-body');
  operator.setAttribute('aria-label', 'Operator');
  from.type = to.type = 'date';
  from.setAttribute('aria-label', 'From');
  to.setAttribute('aria-label', 'To');
  to.value = dayIso(new Date());
  from.value = dayIso(new Date(Date.now() - 29 * 86_400_000));
  show.type = 'submit';
  form.append(labelled('Operator', operator), labelled('From', from), labelled('To', to), show);
  root.append(form, body);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });

  /** Shown: fills the operator list once, then the figures. */
  async function open(): Promise<void> {
    if (operator.options.length === 0) {
      try {
        const { operators } = await api<{ operators: Operator[] }>('GET', '/insights/operators');
        for (const { id, name } of operators) operator.append(new Option(`${name} (${id})`, id));
      } catch (error) {
        body.replaceChildren(el('p', 'muted', messageOf(error)));
        return;
      }
      if (operator.options.length === 0) return void body.replaceChildren(el('p', 'muted', 'This tenant has no operator yet.'));
    }
    await load();
  }

  function query(): string {
    return new URLSearchParams({ operatorId: operator.value, from: from.value, to: to.value }).toString();
  }

  async function load(): Promise<void> {
    if (!operator.value) return;
    show.disabled = true;
    try {
      const [report, gaps] = await Promise.all([
        api<Report>('GET', `/insights/reports?${query()}`),
        api<{ clusters: GapCluster[]; pending: number }>('GET', `/insights/content-gaps?${query()}&limit=20`),
      ]);
      showError('');
      body.replaceChildren(...renderReport(report), renderGaps(gaps.clusters, gaps.pending));
    } catch (error) {
      body.replaceChildren(el('p', 'muted', messageOf(error)));
    } finally {
      show.disabled = false;
    }
  }

  function renderReport(report: Report): HTMLElement[] {
    const { outcomes, feedback, satisfaction, firstAgentReply } = report;
    const cards = el('div', 'cards');
    cards.append(
      card('Conversations', String(report.conversations.total), channelsLine(report.conversations.byChannel)),
      card('Resolved by the AI', percent(outcomes.resolutionRate), `${outcomes.resolved} of ${outcomes.closed} closed`),
      card('Handed to a person', percent(outcomes.handoffRate), `${outcomes.handedOff} of ${outcomes.closed} closed`),
      card(
        'First agent reply',
        firstAgentReply.medianSeconds === null ? '–' : duration(firstAgentReply.medianSeconds),
        `median of ${firstAgentReply.count}`,
      ),
      card('Helpful answers', percent(feedback.shareUp), `${feedback.up} up, ${feedback.down} down`),
      card(
        'Satisfaction',
        satisfaction.average === null ? '–' : `${satisfaction.average.toFixed(1)} / 5`,
        `${satisfaction.count} scores`,
      ),
    );
    const reasons = report.handoffReasons;
    return [
      cards,
      panel('Conversations closed per day, by outcome', 'daily', dayChart(report.conversations.byDay)),
      panel(
        'Handoffs by who asked',
        'handoff-reasons',
        bars([
          ['Visitor asked for a person', reasons.visitor],
          ['AI could not answer', reasons.ai],
          ['Agent took over', reasons.agent],
        ]),
      ),
      panel(
        'Satisfaction (1–5)',
        'satisfaction',
        bars([...satisfaction.distribution].reverse().map(({ score, count }) => [`${score} of 5`, count])),
      ),
      panel(
        'Answer feedback',
        'feedback',
        bars([
          ['Helpful', feedback.up],
          ['Not helpful', feedback.down],
        ]),
      ),
      panel(
        'Most cited sources',
        'top-sources',
        table(
          ['Source', 'Citations'],
          report.topSources.map((source) => [source.title ?? source.key, String(source.citations)]),
          'No answer cited a source in this range.',
        ),
      ),
    ];
  }

  function renderGaps(clusters: GapCluster[], pending: number): HTMLElement {
    const list = el('ol', 'gaps');
    for (const cluster of clusters) list.append(gapItem(cluster));
    const note = pending > 0 ? `${pending} new questions are still being grouped.` : '';
    return panel(
      'Questions the AI could not answer',
      'content-gaps',
      clusters.length ? list : el('p', 'muted', 'No unanswered questions in this range.'),
      note,
    );
  }

  function gapItem(cluster: GapCluster): HTMLLIElement {
    const item = el('li', 'gap');
    const head = el('div', 'gap-head');
    head.append(el('strong', '', cluster.representative), el('span', 'badge', `${cluster.count} asked`));
    if (cluster.reasons.ratedDown > 0) head.append(el('span', 'badge problem', `${cluster.reasons.ratedDown} rated down`));
    const details = el('details');
    details.append(el('summary', '', 'Examples and closest sources'));
    const examples = el('ul');
    for (const example of cluster.examples) examples.append(el('li', '', example));
    details.append(examples);
    if (cluster.closestSources.length)
      details.append(
        el('p', 'muted', `Closest: ${cluster.closestSources.map((source) => source.title || source.key).join(', ')}`),
      );
    item.append(head, details);
    if (cluster.addressed) {
      const { articleId, sourceKey, addressedAt, by, askedSince } = cluster.addressed;
      const what = articleId ? `article ${articleId}` : (sourceKey ?? 'an article');
      item.append(
        el('p', 'addressed', `Addressed by ${what} (${by.name}, ${addressedAt.slice(0, 10)}): asked ${askedSince} times since.`),
      );
    } else item.append(addressForm(cluster.id));
    return item;
  }

  function addressForm(clusterId: string): HTMLFormElement {
    const form = el('form', 'address');
    const article = el('input');
    article.placeholder = 'Article id that answers it';
    article.setAttribute('aria-label', 'Article id');
    article.required = true;
    const button = el('button', 'secondary', 'Mark addressed');
    button.type = 'submit';
    form.append(article, button);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      button.disabled = true;
      try {
        const query = new URLSearchParams({ operatorId: operator.value });
        await api('POST', `/insights/content-gaps/${encodeURIComponent(clusterId)}/addressed?${query}`, {
          articleId: article.value.trim(),
        });
        await load();
      } catch (error) {
        showError(messageOf(error));
        button.disabled = false;
      }
    });
    return form;
  }

  /** A titled box with its CSV download. */
  function panel(title: string, table: string, content: Node, note = ''): HTMLElement {
    const box = el('section', 'panel');
    const head = el('div', 'panel-head');
    const csv = el('button', 'quiet', 'Download CSV');
    csv.type = 'button';
    csv.addEventListener('click', () => void save(table));
    head.append(el('h3', '', title), csv);
    box.append(head, content);
    if (note) box.append(el('p', 'muted', note));
    return box;
  }

  /** Fetches a table's CSV with the token (a plain link could not carry it) and hands it to the browser as a file. */
  async function save(table: string): Promise<void> {
    try {
      const blob = await download(`/insights/reports/${table}.csv?${query()}`);
      const link = el('a');
      link.href = URL.createObjectURL(blob);
      link.download = `${table}-${operator.value}-${from.value}-${to.value}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      showError(messageOf(error));
    }
  }

  function card(title: string, value: string, detail: string): HTMLElement {
    const box = el('div', 'card');
    box.append(el('span', 'card-title', title), el('strong', 'card-value', value), el('span', 'muted', detail));
    return box;
  }

  function labelled(text: string, control: HTMLElement): HTMLLabelElement {
    const label = el('label', '', text);
    label.append(control);
    return label;
  }

  /** Horizontal bars with their numbers: readable as a table by screen readers. */
  function bars(rows: [string, number][]): HTMLElement {
    const max = Math.max(1, ...rows.map(([, value]) => value));
    return table(
      ['', 'Count'],
      rows.map(([label, value]) => [label, String(value)]),
      '',
      (cells, index) => {
        const bar = el('span', 'bar');
        bar.style.width = `${(rows[index]![1] / max) * 100}%`;
        const meter = el('span', 'meter');
        meter.append(bar);
        const metered = el('div', 'metered');
        metered.append(meter, el('span', '', cells[1]!.textContent));
        cells[1]!.replaceChildren(metered);
      },
    );
  }

  function table(
    headers: string[],
    rows: string[][],
    empty: string,
    decorate?: (cells: HTMLTableCellElement[], index: number) => void,
  ): HTMLElement {
    if (rows.length === 0) return el('p', 'muted', empty);
    const node = el('table', 'figures');
    const thead = el('thead');
    const head = el('tr');
    for (const header of headers) head.append(el('th', '', header));
    thead.append(head);
    node.append(thead);
    const tbody = el('tbody');
    rows.forEach((row, index) => {
      const tr = el('tr');
      const cells = row.map((cell) => el('td', '', cell));
      decorate?.(cells, index);
      tr.append(...cells);
      tbody.append(tr);
    });
    node.append(tbody);
    return node;
  }

  /**
   * The conversations that closed each day as stacked columns by outcome (plain elements sized in
   * percent, so the chart takes the panel's width), the first and last day under them, and a legend.
   * Each column's title says its figures; the whole is one image to screen readers, with the tables
   * and the CSV for the numbers.
   */
  function dayChart(days: DayRow[]): HTMLElement {
    const figure = el('figure', 'chart');
    const columns = el('div', 'columns');
    columns.setAttribute('role', 'img');
    columns.setAttribute(
      'aria-label',
      `Conversations closed per day by outcome, ${days[0]?.day ?? ''} to ${days.at(-1)?.day ?? ''}`,
    );
    const max = Math.max(1, ...days.map((day) => day.closed));
    for (const day of days) {
      const column = el('div', 'column');
      column.title = `${day.day}: ${day.resolved} resolved, ${day.handedOff} handed off, ${day.abandoned} abandoned`;
      for (const [kind, value] of [
        ['abandoned', day.abandoned],
        ['handed-off', day.handedOff],
        ['resolved', day.resolved],
      ] as const) {
        if (value === 0) continue;
        const segment = el('span', `segment ${kind}`);
        segment.style.height = `${(value / max) * 100}%`;
        column.append(segment);
      }
      columns.append(column);
    }
    const ends = el('div', 'ends');
    ends.append(el('span', '', days[0]?.day ?? ''), el('span', '', days.at(-1)?.day ?? ''));
    const legend = el('figcaption', 'legend');
    for (const [kind, text] of [
      ['resolved', 'Resolved by the AI'],
      ['handed-off', 'Handed to a person'],
      ['abandoned', 'Abandoned'],
    ])
      legend.append(el('span', `key ${kind}`, text));
    figure.append(columns, ends, legend);
    return figure;
  }

  return { element: root, open };
}

function channelsLine(byChannel: Record<string, number>): string {
  return `${byChannel.widget ?? 0} widget, ${byChannel.messaging ?? 0} WhatsApp`;
}

/** Seconds as "45 s", "3 min", "2.5 h". */
function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5_400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3_600).toFixed(1)} h`;
}
