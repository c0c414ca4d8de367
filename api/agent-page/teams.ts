/**
 * The Teams view of the agent inbox page (served as `/agent/teams.js`, imported by app.ts the first
 * time the view is opened; for a tenant admin: an agent is told it needs that role): the tenant's
 * teams (members by name, how each assigns, its office hours and service-level targets), each to
 * change or delete (confirmed); the team form (team-form.ts); the routing of handoffs to teams
 * (team-routing.ts); and the service-level report of the last 30 days (`GET /insights/sla`): met and
 * breached per target, in total, per team and per agent, by name. Everything from the API goes on
 * the page with `textContent`.
 */

import {
  createTeamForm,
  dayWords,
  minutesText,
  targetWords,
  weekdays,
  type Agent,
  type SlaPolicy,
  type Team,
} from './team-form.js';
import { createRoutingEditor, type Routing } from './team-routing.js';
import type { ViewDeps } from './view-deps.js';

type Metric = 'firstResponse' | 'nextResponse' | 'resolution';
type Figures = Record<Metric, { met: number; breached: number }>;

/** `GET /insights/sla` (api/schemas/insights-sla.ts). */
interface SlaReport {
  from: string;
  to: string;
  total: Figures;
  teams: { teamId: string | null; figures: Figures }[];
  agents: { agentId: string | null; figures: Figures }[];
}

const metrics: [Metric, string][] = [
  ['firstResponse', 'First response'],
  ['nextResponse', 'Next response'],
  ['resolution', 'Resolution'],
];

export function createTeamsView(deps: ViewDeps) {
  const { api, el, showError, messageOf } = deps;
  const root = el('section', 'teams');
  const listNote = el('p', 'muted');
  listNote.id = 'teams-note';
  const list = el('div', 'team-list');
  list.id = 'team-list';
  const view: {
    teams: Team[];
    agents: Agent[];
    report: SlaReport | null;
    confirming: string | null;
    /** The latest read: an earlier one that answers late changes nothing. */
    round: number;
  } = { teams: [], agents: [], report: null, confirming: null, round: 0 };

  const form = createTeamForm({
    ...deps,
    saved: async () => {
      await read({ routing: false });
    },
  });
  const routing = createRoutingEditor(deps);
  const report = reportPanel();
  const panels = [form.panel, routing.panel, report.panel];
  root.append(el('h2', '', 'Teams'), listNote, list, ...panels);

  /** Shown: reads the teams, the routing, the users and the report. */
  async function open(): Promise<void> {
    await read({ routing: true });
  }

  /**
   * Reads what the view shows. The report is for admins only: its 403 tells an agent the view needs
   * the admin role, in the API's words (the teams themselves agents may read), and the forms, which
   * would only be refused, are hidden.
   */
  async function read({ routing: withRouting }: { routing: boolean }): Promise<void> {
    const round = ++view.round;
    try {
      const [slaReport, teams, agents, rules] = await Promise.all([
        api<SlaReport>('GET', '/insights/sla'),
        api<{ teams: Team[] }>('GET', '/teams'),
        api<{ agents: Agent[] }>('GET', '/agent/agents'),
        withRouting ? api<{ routing: Routing }>('GET', '/team-routing') : Promise.resolve(null),
      ]);
      if (round !== view.round) return;
      view.teams = teams.teams;
      view.agents = agents.agents;
      view.report = slaReport;
      for (const panel of panels) panel.hidden = false;
      form.setAgents(view.agents);
      routing.setTeams(view.teams);
      if (rules) routing.show(rules.routing);
      render();
    } catch (error) {
      if (round !== view.round) return;
      if ((error as { status?: number }).status === 403) {
        listNote.textContent = messageOf(error);
        list.replaceChildren();
        for (const panel of panels) panel.hidden = true;
      } else showError(messageOf(error));
    }
  }

  const nameOf = (id: string) => view.agents.find((agent) => agent.id === id)?.name ?? 'a former user';
  const teamName = (id: string | null) =>
    id === null ? 'No team' : (view.teams.find((team) => team.id === id)?.name ?? 'A removed team');

  function render(): void {
    listNote.textContent = view.teams.length ? '' : 'No teams yet: create one below.';
    list.replaceChildren(...view.teams.map(teamPanel));
    report.show(view.report);
  }

  function teamPanel(team: Team): HTMLElement {
    const box = el('section', 'panel team');
    box.dataset.teamId = team.id;
    const head = el('div', 'panel-head');
    const title = el('div', 'source-title');
    title.append(el('h3', '', team.name), el('span', 'badge', `${team.memberIds.length} members`));
    head.append(title, actions(team));
    const members = team.memberIds.map(nameOf).join(', ');
    const { automatic, capacity, offerSeconds } = team.assignment;
    box.append(
      head,
      el('p', 'team-line members', members ? `Members: ${members}` : 'No members.'),
      el(
        'p',
        'team-line assignment',
        automatic
          ? `Assigns automatically: at most ${capacity} conversations each, offered for ${offerSeconds} s.`
          : `Assigned by hand (at most ${capacity} each).`,
      ),
      el('p', 'team-line hours', hoursText(team)),
      el('p', 'team-line sla', slaText(team.sla)),
    );
    return box;
  }

  function hoursText({ officeHours: hours }: Team): string {
    if (!hours) return 'Always open.';
    const days = weekdays.map((day) => {
      const intervals = hours.weekly[day];
      const words = intervals.length ? intervals.map(({ from, to }) => `${from}–${to}`).join(', ') : 'closed';
      return `${dayWords[day].slice(0, 3)} ${words}`;
    });
    const holidays = hours.holidays.length ? `; closed on ${hours.holidays.join(', ')}` : '';
    return `Office hours (${hours.timeZone}): ${days.join(' · ')}${holidays}.`;
  }

  function slaText(sla: SlaPolicy | null): string {
    const set = sla
      ? (Object.keys(targetWords) as (keyof SlaPolicy)[])
          .filter((key) => sla[key] !== null)
          .map((key) => `${targetWords[key].toLowerCase()} ${minutesText(sla[key])} min`)
      : [];
    return set.length ? `Targets: ${set.join(', ')}.` : 'No service-level targets.';
  }

  function actions(team: Team): HTMLElement {
    const box = el('div', 'actions');
    if (view.confirming === team.id) {
      box.append(
        el('span', 'confirm', `Delete “${team.name}”? It leaves the routing; its conversations keep it until routed again.`),
        button('Yes, delete', 'danger', () => remove(team)),
        button('Cancel', 'quiet', async () => {
          view.confirming = null;
          render();
        }),
      );
      return box;
    }
    box.append(
      button('Change', 'secondary', async () => {
        form.edit(team);
        form.panel.scrollIntoView({ block: 'start' });
      }),
      button('Delete', 'danger', async () => {
        view.confirming = team.id;
        render();
      }),
    );
    return box;
  }

  async function remove(team: Team): Promise<void> {
    await api('DELETE', `/teams/${encodeURIComponent(team.id)}`);
    view.confirming = null;
    // The API took it out of the routing too.
    await read({ routing: true });
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

  /** The service levels of the last 30 days: met and breached per target, in total, per team and per agent. */
  function reportPanel() {
    const panel = el('section', 'panel sla-report');
    panel.id = 'sla-report';
    const head = el('div', 'panel-head');
    const again = button('Read again', 'quiet', () => read({ routing: false }));
    head.append(el('h3', '', 'Service levels, the last 30 days'), again);
    const range = el('p', 'muted');
    const table = el('table', 'figures sla');
    panel.append(head, range, table);

    function show(report: SlaReport | null): void {
      if (!report) return;
      range.textContent = `Targets met and breached from ${report.from} to ${report.to} (UTC days), by the day each was decided.`;
      const top = el('tr');
      const sub = el('tr');
      top.append(el('th', '', ''));
      sub.append(el('th', '', ''));
      for (const [, words] of metrics) {
        const th = el('th', '', words);
        th.colSpan = 2;
        top.append(th);
        sub.append(el('th', '', 'Met'), el('th', '', 'Breached'));
      }
      const thead = el('thead');
      thead.append(top, sub);
      const body = el('tbody');
      body.append(row('total', 'All teams', report.total));
      for (const { teamId, figures } of report.teams)
        body.append(row(`team:${teamId ?? 'none'}`, `Team: ${teamName(teamId)}`, figures));
      for (const { agentId, figures } of report.agents)
        body.append(row(`agent:${agentId ?? 'none'}`, `Agent: ${agentId ? nameOf(agentId) : 'nobody'}`, figures));
      table.replaceChildren(thead, body);
    }

    function row(key: string, words: string, figures: Figures): HTMLTableRowElement {
      const tr = el('tr');
      tr.dataset.row = key;
      tr.append(el('th', '', words));
      for (const [metric] of metrics)
        for (const outcome of ['met', 'breached'] as const) {
          const count = figures[metric]?.[outcome] ?? 0;
          const td = el('td', outcome === 'breached' && count > 0 ? 'breached' : '', String(count));
          td.dataset.metric = metric;
          td.dataset.outcome = outcome;
          tr.append(td);
        }
      return tr;
    }

    return { panel, show };
  }

  return { element: root, open };
}

export type TeamsView = ReturnType<typeof createTeamsView>;
