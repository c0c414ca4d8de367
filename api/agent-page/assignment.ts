/*
 * Teams and assignment on the inbox page, served as `/agent/assignment.js` (its types stripped like
 * app.ts's): the list's "Mine / Unassigned / All" switch and team select, each listed conversation's
 * assignee and team, the agent's availability in the header, an Assign control on the open
 * conversation, its assignment changes marked private in the transcript, and a notice when a
 * conversation is assigned to the agent. app.ts mounts the elements and hands the inbox stream's
 * events over; everything from the API goes on the page as text.
 */

import { slaChanged, slaTickMs, tickSlaBadges, type SlaState } from './sla.js';
import type { ViewDeps } from './view-deps.js';

interface Person {
  id: string;
  name: string;
}

/** A conversation of the list (`GET /agent/conversations`) as this module reads it. */
export interface AssignedSummary {
  conversationId: string;
  status?: string;
  teamId?: string | null;
  assignee?: Person | null;
  /** Its service-level clocks (sla.ts); null: none running. */
  sla?: SlaState | null;
}

/** A change of team or assignee, on a private system message of the agents' transcript. */
interface AssignmentChange {
  teamId: string | null;
  assignee: Person | null;
  reason: 'routed' | 'not_taken_up' | 'agent_left' | 'offered' | 'manual';
}

interface Team {
  id: string;
  name: string;
}

type Availability = 'available' | 'away' | 'offline';

interface Agent {
  id: string;
  name: string;
  role: 'admin' | 'agent';
  availability: Availability;
  load: number;
  teamIds: string[];
}

type View = 'mine' | 'unassigned' | 'all';
type Sort = 'activity' | 'sla';

export interface AssignmentDeps<Summary extends AssignedSummary> extends Pick<
  ViewDeps,
  'api' | 'el' | 'showError' | 'messageOf' | 'time'
> {
  /** Shows the list (filtered as the switch and the team select say). */
  showList(conversations: Summary[]): void;
  /** The conversation open now, if any. */
  selected(): string | null;
  /** Opens a conversation in the inbox. */
  open(conversationId: string): void;
  /** Adds a message to the open transcript (once: the page matches them by id). */
  show(message: unknown): void;
  /** The open conversation's object changed here (its SLA clocks): app.ts draws its head again. */
  redraw(): void;
}

const views: Array<[View, string]> = [
  ['mine', 'Mine'],
  ['unassigned', 'Unassigned'],
  ['all', 'All'],
];
const sorts: Array<[Sort, string]> = [
  ['activity', 'Newest activity'],
  ['sla', 'Time left'],
];
const availabilityLabels: Record<Availability, string> = { available: 'Available', away: 'Away', offline: 'Offline' };
/** What the list and the stream read: every status, the latest 200 (`GET /agent/events` reads the same). */
const listQuery = { status: 'all', limit: '200' };
/** How often at most the open conversation's Assign control reads the agents again on inbox changes. */
const agentsRefreshMs = 5_000;

export function createAssignment<Summary extends AssignedSummary>(deps: AssignmentDeps<Summary>) {
  const { api, el, showError, messageOf, time } = deps;
  const state: {
    view: View;
    teamId: string;
    sort: Sort;
    teams: Team[];
    agents: Agent[];
    agentsReadAt: number;
    /** The stream's latest list, unfiltered. */
    all: Summary[] | null;
    /** The conversation the Assign control is about (app.ts's own object, kept up to date here). */
    open: Summary | null;
    /** Team ids the list named that the page did not know (created since it read them): read once each. */
    unknownTeams: Set<string>;
    /** Conversations assigned to the agent that they have not opened yet, the latest last. */
    assigned: string[];
    /** Bumped by each list read: an answer of an older one is stale. */
    run: number;
    /** Bumped by a sign-out: what was asked before it is dropped. */
    session: number;
  } = {
    view: 'all',
    teamId: '',
    sort: 'activity',
    teams: [],
    agents: [],
    agentsReadAt: 0,
    all: null,
    open: null,
    unknownTeams: new Set(),
    assigned: [],
    run: 0,
    session: 0,
  };

  // ---- The list's filters, above its first heading.
  const filters = el('div', 'assignment-filters');
  filters.id = 'assignment-filters';
  const switcher = el('div', 'assignment-view');
  switcher.id = 'assignment-view';
  switcher.setAttribute('role', 'group');
  switcher.setAttribute('aria-label', 'Whose conversations');
  for (const [view, label] of views) {
    const button = el('button', 'quiet', label);
    button.type = 'button';
    button.dataset.view = view;
    button.addEventListener('click', () => {
      state.view = view;
      renderSwitch();
      void applyFilters();
    });
    switcher.append(button);
  }
  const teamSelect = el('select');
  teamSelect.id = 'assignment-team';
  teamSelect.setAttribute('aria-label', 'Team');
  teamSelect.addEventListener('change', () => {
    state.teamId = teamSelect.value;
    void applyFilters();
  });
  // "Time left": those with a running service-level target, the least time left (overdue) first.
  const sortSelect = el('select');
  sortSelect.id = 'assignment-sort';
  sortSelect.setAttribute('aria-label', 'Sort');
  for (const [value, label] of sorts) {
    const option = el('option', undefined, label);
    option.value = value;
    sortSelect.append(option);
  }
  sortSelect.addEventListener('change', () => {
    state.sort = sortSelect.value as Sort;
    void applyFilters();
  });
  filters.append(switcher, teamSelect, sortSelect);
  /** Says the SLA badges' time left again while signed in. */
  let slaTick: ReturnType<typeof setInterval> | undefined;

  function renderSwitch() {
    for (const button of switcher.querySelectorAll('button'))
      button.setAttribute('aria-pressed', String(button.dataset.view === state.view));
  }

  function renderTeams() {
    const options: Array<[string, string]> = [
      ['', 'All teams'],
      ...state.teams.map((team): [string, string] => [team.id, team.name]),
      ['none', 'No team'],
    ];
    // A team removed meanwhile stays chosen (and named as such) until another is chosen.
    if (state.teamId && !options.some(([id]) => id === state.teamId)) options.push([state.teamId, 'Removed team']);
    teamSelect.replaceChildren(
      ...options.map(([value, label]) => {
        const option = el('option', undefined, label);
        option.value = value;
        return option;
      }),
    );
    teamSelect.value = state.teamId;
  }

  const teamName = (teamId: string | null | undefined) =>
    teamId ? state.teams.find((team) => team.id === teamId)?.name : undefined;

  /**
   * The list as the filters say. "All" and "All teams" is the stream's own list as it is. Otherwise the
   * page asks `GET /agent/conversations` with the filters, again each time the stream says the inbox
   * changed, rather than filtering the stream's list itself: only the API knows whose "Mine" is (the page
   * does not know its user's id), and it answers from the indexes kept for these filters, so the list
   * holds up to 200 of the matching conversations, not only those among the tenant's latest 200.
   * "Time left" asks `sort=sla` with the same filters: only conversations with a running target, the
   * least time left first (the page keeps that order within each group). An answer overtaken by a
   * newer read (or a sign-out) is dropped.
   */
  async function applyFilters(): Promise<void> {
    const run = ++state.run;
    if (state.view === 'all' && !state.teamId && state.sort === 'activity') {
      if (state.all) deps.showList(state.all);
      return;
    }
    const query = new URLSearchParams(listQuery);
    if (state.view !== 'all') query.set('assignee', state.view);
    if (state.teamId) query.set('teamId', state.teamId);
    if (state.sort === 'sla') query.set('sort', 'sla');
    try {
      const { conversations } = await api<{ conversations: Summary[] }>('GET', `/agent/conversations?${query}`);
      if (run === state.run) deps.showList(conversations);
    } catch (error) {
      if (run === state.run) showError(messageOf(error));
    }
  }

  async function readTeams(): Promise<void> {
    const session = state.session;
    try {
      const { teams } = await api<{ teams: Team[] }>('GET', '/teams');
      if (session !== state.session) return;
      state.teams = teams;
      renderTeams();
      // The rows and the open conversation name their teams now.
      void applyFilters();
      renderControl();
    } catch (error) {
      showError(messageOf(error));
    }
  }

  // ---- The agent's availability, in the header.
  const availability = el('span', 'availability');
  availability.id = 'availability';
  const availabilitySelect = el('select');
  availabilitySelect.id = 'availability-choice';
  availabilitySelect.setAttribute('aria-label', 'Your availability');
  availabilitySelect.title = 'Only available agents are given conversations automatically.';
  for (const [value, label] of Object.entries(availabilityLabels)) {
    const option = el('option', undefined, label);
    option.value = value;
    availabilitySelect.append(option);
  }
  const availabilityNote = el('span', 'availability-note');
  availabilityNote.id = 'availability-note';
  availabilityNote.setAttribute('role', 'status');
  availability.append(availabilitySelect, availabilityNote);
  availabilitySelect.addEventListener('change', () => void chooseAvailability(availabilitySelect.value as Availability));

  /** What the API answers: the choice, and (after a change) how the inbox sees the agent when it differs. */
  function showAvailability(answer: { availability: Availability; chosen: Availability }, changed: boolean) {
    availabilitySelect.value = answer.chosen;
    availability.dataset.availability = answer.chosen;
    availabilityNote.textContent =
      changed && answer.availability !== answer.chosen
        ? `Seen as ${availabilityLabels[answer.availability].toLowerCase()}`
        : changed
          ? `${availabilityLabels[answer.chosen]} ✓`
          : '';
  }

  async function readAvailability(): Promise<void> {
    const session = state.session;
    try {
      const answer = await api<{ availability: Availability; chosen: Availability }>('GET', '/agent/availability');
      if (session === state.session) showAvailability(answer, false);
    } catch (error) {
      showError(messageOf(error));
    }
  }

  async function chooseAvailability(choice: Availability): Promise<void> {
    showError('');
    availabilitySelect.disabled = true;
    availabilityNote.textContent = 'Saving…';
    try {
      showAvailability(await api('PUT', '/agent/availability', { availability: choice }), true);
    } catch (error) {
      availabilityNote.textContent = '';
      showError(messageOf(error));
      void readAvailability();
    } finally {
      availabilitySelect.disabled = false;
    }
  }

  // ---- "A conversation was assigned to you", below the header.
  const notice = el('div', 'assigned-notice');
  notice.id = 'assigned-notice';
  notice.setAttribute('role', 'status');
  notice.hidden = true;
  const openAssigned = el('button');
  openAssigned.id = 'assigned-open';
  openAssigned.type = 'button';
  const dismiss = el('button', 'quiet', '×');
  dismiss.type = 'button';
  dismiss.setAttribute('aria-label', 'Dismiss');
  notice.append(openAssigned, dismiss);
  openAssigned.addEventListener('click', () => {
    const conversationId = state.assigned.pop();
    renderNotice();
    if (conversationId) deps.open(conversationId);
  });
  dismiss.addEventListener('click', () => {
    state.assigned = [];
    renderNotice();
  });

  function renderNotice() {
    const count = state.assigned.length;
    notice.hidden = count === 0;
    openAssigned.textContent =
      count === 1
        ? 'A conversation was assigned to you: open it'
        : `${count} conversations were assigned to you: open the latest`;
  }

  // ---- The Assign control of the open conversation, in its head.
  const control = el('form', 'assign');
  control.id = 'assign';
  const agentSelect = el('select');
  agentSelect.id = 'assign-agent';
  agentSelect.setAttribute('aria-label', 'Assign to');
  const assignButton = el('button', 'secondary', 'Assign');
  assignButton.type = 'submit';
  const teamLabel = el('span', 'assign-team');
  const assignNote = el('span', 'assign-note');
  assignNote.id = 'assign-note';
  assignNote.setAttribute('role', 'status');
  control.append(el('span', 'assign-label', 'Assigned to'), agentSelect, assignButton, teamLabel, assignNote);
  /** The agent chosen in the select and not yet assigned: kept while the list of agents is read again. */
  let touched = false;
  /** Bumped by each read of the agents (and a sign-out): an older answer is stale. */
  let agentReads = 0;
  agentSelect.addEventListener('change', () => {
    touched = true;
    assignNote.textContent = '';
  });
  control.addEventListener('submit', (event) => {
    event.preventDefault();
    void assign();
  });

  function renderControl() {
    const conversation = state.open;
    if (!conversation) return;
    const assignee = conversation.assignee ?? null;
    const options: Array<[string, string]> = [
      ['', 'Nobody'],
      ...state.agents.map((agent): [string, string] => [agent.id, `${agent.name} (${agent.availability}, ${agent.load})`]),
    ];
    // Assigned to someone the list does not have (no longer active, or not read yet): still named.
    if (assignee && !state.agents.some((agent) => agent.id === assignee.id)) options.push([assignee.id, assignee.name]);
    const chosen = touched ? agentSelect.value : (assignee?.id ?? '');
    const same =
      agentSelect.options.length === options.length && options.every(([value], i) => agentSelect.options[i]?.value === value);
    // Texts move on in place (the menu may be open); the options are made again only when the agents changed.
    if (same) options.forEach(([, label], i) => (agentSelect.options[i]!.textContent = label));
    else
      agentSelect.replaceChildren(
        ...options.map(([value, label]) => {
          const option = el('option', undefined, label);
          option.value = value;
          return option;
        }),
      );
    agentSelect.value = options.some(([value]) => value === chosen) ? chosen : (assignee?.id ?? '');
    const team = conversation.teamId ? (teamName(conversation.teamId) ?? 'a removed team') : null;
    teamLabel.textContent = team ? `Team: ${team}` : 'No team';
    const closed = conversation.status === 'closed';
    agentSelect.disabled = closed;
    assignButton.disabled = closed;
  }

  async function readAgents(): Promise<void> {
    const read = ++agentReads;
    state.agentsReadAt = Date.now();
    try {
      const { agents } = await api<{ agents: Agent[] }>('GET', '/agent/agents');
      // A sign-out, or a later read, makes this one stale.
      if (read !== agentReads) return;
      state.agents = agents;
      renderControl();
    } catch (error) {
      showError(messageOf(error));
    }
  }

  async function assign(): Promise<void> {
    const conversation = state.open;
    if (!conversation) return;
    const conversationId = conversation.conversationId;
    const agentId = agentSelect.value || null;
    assignNote.className = 'assign-note';
    assignNote.textContent = 'Assigning…';
    assignButton.disabled = true;
    try {
      const answer = await api<{ accepted?: true; status?: string; teamId?: string | null; assignee?: Person | null }>(
        'POST',
        `/agent/conversations/${encodeURIComponent(conversationId)}/assign`,
        { agentId },
      );
      if (state.open?.conversationId !== conversationId) return;
      touched = false;
      if (answer.accepted) {
        assignNote.textContent = 'Accepted: the conversation is applying it.';
      } else {
        conversation.teamId = answer.teamId ?? null;
        conversation.assignee = answer.assignee ?? null;
        if (answer.status) conversation.status = answer.status;
        assignNote.textContent = answer.assignee ? `Assigned to ${answer.assignee.name}.` : 'Assigned to nobody.';
      }
      renderControl();
      void readAgents();
      void readEntries(conversationId);
      void applyFilters();
    } catch (error) {
      if (state.open?.conversationId !== conversationId) return;
      // A refusal (409: closed, or being answered and not to be unassigned) in the API's words.
      assignNote.className = 'assign-note refused';
      assignNote.textContent = messageOf(error);
    } finally {
      assignButton.disabled = state.open?.status === 'closed';
    }
  }

  /** The open conversation's assignment entries, read again after it changed (the conversation's stream does not carry them). */
  async function readEntries(conversationId: string): Promise<void> {
    try {
      const { messages } = await api<{ messages: Array<{ id: string; assignment?: AssignmentChange }> }>(
        'GET',
        `/agent/conversations/${encodeURIComponent(conversationId)}`,
      );
      if (deps.selected() !== conversationId) return;
      for (const message of messages) if (message.assignment) deps.show(message);
    } catch (error) {
      showError(messageOf(error));
    }
  }

  /** The stream's copy of the open conversation says its team or assignee changed (by someone else, or automatically). */
  function followOpen(all: Summary[]) {
    const conversation = state.open;
    if (!conversation) return;
    const now = all.find((listed) => listed.conversationId === conversation.conversationId);
    if (!now) return;
    const moved =
      (now.teamId ?? null) !== (conversation.teamId ?? null) ||
      (now.assignee?.id ?? null) !== (conversation.assignee?.id ?? null);
    // Its clocks moved on (a breach, a reply): the head's badge says so.
    if (slaChanged(now.sla, conversation.sla)) {
      conversation.sla = now.sla ?? null;
      deps.redraw();
    }
    if (moved) {
      conversation.teamId = now.teamId ?? null;
      conversation.assignee = now.assignee ?? null;
      void readEntries(conversation.conversationId);
    }
    if (moved || Date.now() - state.agentsReadAt > agentsRefreshMs) void readAgents();
    else renderControl();
  }

  return {
    filters,
    availability,
    notice,
    control,

    /** Signed in: the teams (for the select and the rows) and the agent's availability. */
    start() {
      renderSwitch();
      renderTeams();
      renderNotice();
      clearInterval(slaTick);
      slaTick = setInterval(() => tickSlaBadges(document), slaTickMs);
      void readTeams();
      void readAvailability();
    },

    /** The inbox stream's list: shown as the filters say. */
    inbox(conversations: Summary[]) {
      state.all = conversations;
      // A team created since the teams were read (its conversations name it): read them again, once per new id.
      const unknown = conversations
        .map((conversation) => conversation.teamId)
        .filter(
          (teamId): teamId is string =>
            Boolean(teamId) && !state.teams.some((team) => team.id === teamId) && !state.unknownTeams.has(teamId!),
        );
      if (unknown.length > 0) {
        for (const teamId of unknown) state.unknownTeams.add(teamId);
        void readTeams();
      }
      followOpen(conversations);
      void applyFilters();
    },

    /** The stream's `assigned` event: a conversation was just assigned to this agent. */
    assigned(conversationId: string) {
      if (deps.selected() === conversationId) return;
      state.assigned = [...state.assigned.filter((id) => id !== conversationId), conversationId];
      renderNotice();
    },

    /** A row of the list: to whom it is assigned ("→ Ada") and its team. */
    decorateRow(button: HTMLButtonElement, conversation: Summary) {
      const line = el('span', 'assignment-line');
      if (conversation.assignee) line.append(el('span', 'assignee', `→ ${conversation.assignee.name}`));
      else if (conversation.status === 'waiting_for_agent') line.append(el('span', 'assignee none', 'Unassigned'));
      const team = teamName(conversation.teamId);
      if (team) line.append(el('span', 'team', team));
      if (line.childElementCount > 0) button.append(line);
    },

    /** The open conversation (app.ts's object): the Assign control shows it; a change of conversation reads the agents. */
    show(conversation: Summary) {
      const changed = state.open?.conversationId !== conversation.conversationId;
      state.open = conversation;
      if (changed) {
        touched = false;
        assignNote.textContent = '';
        assignNote.className = 'assign-note';
        if (state.assigned.includes(conversation.conversationId)) {
          state.assigned = state.assigned.filter((id) => id !== conversation.conversationId);
          renderNotice();
        }
        void readAgents();
      }
      renderControl();
    },

    /** A message of the transcript: an assignment change is marked private, like a note. */
    decorate(item: HTMLLIElement, message: { assignment?: AssignmentChange; createdAt: string }) {
      if (!message.assignment) return;
      item.classList.add('private', 'assignment');
      item
        .querySelector('.meta')
        ?.replaceChildren(el('span', 'private-label', 'Private'), ` · Assignment · ${time(message.createdAt)}`);
    },

    reset() {
      state.run++;
      state.session++;
      agentReads++;
      state.view = 'all';
      state.teamId = '';
      state.sort = 'activity';
      sortSelect.value = 'activity';
      clearInterval(slaTick);
      state.teams = [];
      state.agents = [];
      state.all = null;
      state.open = null;
      state.unknownTeams.clear();
      state.assigned = [];
      touched = false;
      assignNote.textContent = '';
      availabilityNote.textContent = '';
      renderSwitch();
      renderTeams();
      renderNotice();
    },
  };
}
