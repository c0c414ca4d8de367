/*
 * The team form of the Teams view (teams.ts), served as `/agent/team-form.js`: a new team or one to
 * change (`POST /teams`, `PATCH /teams/{id}`): its name, its members chosen by name among the
 * tenant's agents, how it assigns, its office hours (a time zone, a line of intervals per weekday,
 * holidays) and its service-level targets in minutes (empty: none). The API's refusal is said field
 * by field beside it (`refusalItems`, which the routing uses too). Everything from the API goes on
 * the page as text.
 */

import type { ViewDeps } from './view-deps.js';

// The API's shapes as this view reads them (api/schemas/teams.ts).
export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];

export interface Interval {
  from: string;
  to: string;
}

export interface OfficeHours {
  timeZone: string;
  weekly: Record<Weekday, Interval[]>;
  holidays: string[];
}

export interface SlaPolicy {
  firstResponseMinutes: number | null;
  nextResponseMinutes: number | null;
  resolutionMinutes: number | null;
}

export interface Team {
  id: string;
  name: string;
  memberIds: string[];
  assignment: { automatic: boolean; capacity: number; offerSeconds: number };
  officeHours: OfficeHours | null;
  sla: SlaPolicy | null;
}

/** A user of the tenant (`GET /agent/agents`), as the form names them. */
export interface Agent {
  id: string;
  name: string;
  role: 'admin' | 'agent';
}

export const dayWords: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export const targetWords: Record<keyof SlaPolicy, string> = {
  firstResponseMinutes: 'First response',
  nextResponseMinutes: 'Next response',
  resolutionMinutes: 'Resolution',
};

/** Where a refused field stands on the page: its words and the control to mark. */
export interface Placed {
  words: string;
  control?: HTMLElement;
}

/**
 * The API's refusal as list items, each problem named by its field (`place` of its path), the most
 * precise only (a value that matched neither side of a "this or null" also says so of its parent);
 * the refusal's own message first when a problem has no place. Marks the controls it names.
 */
export function refusalItems(
  { el, messageOf, detailsOf }: Pick<ViewDeps, 'el' | 'messageOf' | 'detailsOf'>,
  error: unknown,
  place: (path: string) => Placed | undefined,
): HTMLLIElement[] {
  const details = detailsOf(error);
  const precise = details.filter(({ path = '' }) => !details.some((other) => other.path?.startsWith(`${path}/`)));
  const said = new Map<string, string[]>();
  let unplaced = false;
  for (const { path = '', message } of precise) {
    const placed = place(path);
    if (!placed) {
      unplaced = true;
      continue;
    }
    placed.control?.setAttribute('aria-invalid', 'true');
    said.set(placed.words, [...(said.get(placed.words) ?? []), message]);
  }
  const items = [...said].map(([words, messages]) => el('li', '', `${words}: ${[...new Set(messages)].join('; ')}.`));
  if (unplaced || items.length === 0) items.unshift(el('li', '', messageOf(error)));
  return items;
}

/** "09:00-12:30, 13:30-17:00" as intervals; a piece without a dash is sent as it is, for the API to name. */
export function intervalsOf(text: string): Interval[] {
  return text
    .split(/[,;]/)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((piece) => {
      const [from = '', to = ''] = piece.split(/\s*[-–]\s*/);
      return { from, to };
    });
}

export const intervalsText = (intervals: Interval[] = []) => intervals.map(({ from, to }) => `${from}-${to}`).join(', ');

/** Minutes as the form and the list say them: a whole number, or at most two decimals (a test's seconds). */
export const minutesText = (minutes: number | null | undefined) =>
  minutes === null || minutes === undefined ? '' : String(Math.round(minutes * 100) / 100);

export interface TeamFormDeps extends Pick<ViewDeps, 'api' | 'el' | 'messageOf' | 'detailsOf'> {
  /** A team was created or changed: the view reads the teams again. */
  saved(team: Team): Promise<void>;
}

export function createTeamForm(deps: TeamFormDeps) {
  const { api, el } = deps;
  const panel = el('section', 'panel team-editor');
  panel.id = 'team-editor';
  const heading = el('h3');
  const form = el('form', 'source-form team-form');
  form.noValidate = true;

  const name = input('team-name', 'text');
  name.maxLength = 200;
  const members = el('div', 'team-members');
  members.id = 'team-members';
  const automatic = input('team-automatic', 'checkbox');
  const capacity = numberInput('team-capacity', '5 (default)', 1);
  const offerSeconds = numberInput('team-offer', '120 (default)', 30);
  const timeZone = input('team-timezone', 'text');
  timeZone.placeholder = 'e.g. Europe/Berlin';
  const days = Object.fromEntries(
    weekdays.map((day) => {
      const field = input(`team-hours-${day}`, 'text');
      field.placeholder = 'closed (e.g. 09:00-12:30, 13:30-17:00)';
      return [day, field];
    }),
  ) as Record<Weekday, HTMLInputElement>;
  const holidays = input('team-holidays', 'text');
  holidays.placeholder = 'e.g. 2026-12-24, 2026-12-25';
  const targets = {
    firstResponseMinutes: numberInput('team-sla-first', 'none', 1),
    nextResponseMinutes: numberInput('team-sla-next', 'none', 1),
    resolutionMinutes: numberInput('team-sla-resolution', 'none', 1),
  } satisfies Record<keyof SlaPolicy, HTMLInputElement>;
  for (const target of Object.values(targets)) target.step = 'any';
  const problems = el('div', 'problems');
  problems.id = 'team-problems';
  problems.setAttribute('role', 'alert');
  problems.hidden = true;
  const save = el('button', '', 'Create team');
  save.id = 'team-save';
  save.type = 'submit';
  const cancel = el('button', 'quiet', 'New team instead');
  cancel.id = 'team-cancel';
  cancel.type = 'button';
  const buttons = el('div', 'actions');
  buttons.append(save, cancel);

  const automaticLabel = el('label', 'inline');
  automaticLabel.append(automatic, ' Assign automatically (the least loaded available member)');
  const assignment = group(
    'Assignment',
    automaticLabel,
    field('Conversations each at most', capacity),
    field('Offered for, in seconds', offerSeconds),
  );
  const hours = group(
    'Office hours (all empty: always open)',
    field('Time zone', timeZone),
    ...weekdays.map((day) => field(dayWords[day], days[day])),
    field('Holidays, comma-separated (YYYY-MM-DD)', holidays),
  );
  const sla = group(
    'Service-level targets, in minutes (empty: none)',
    ...(Object.keys(targets) as (keyof SlaPolicy)[]).map((key) => field(targetWords[key], targets[key])),
  );
  form.append(field('Name', name), group('Members', members), assignment, hours, sla, problems, buttons);
  panel.append(heading, form);

  const editing: { team: Team | null; agents: Agent[] } = { team: null, agents: [] };
  cancel.addEventListener('click', () => edit(null));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });

  /** The form for `team` (null: a new one), its fields as the team has them. */
  function edit(team: Team | null): void {
    editing.team = team;
    heading.textContent = team ? `Change “${team.name}”` : 'New team';
    save.textContent = team ? 'Save team' : 'Create team';
    cancel.hidden = !team;
    clearProblems();
    name.value = team?.name ?? '';
    automatic.checked = team?.assignment.automatic ?? true;
    capacity.value = team ? String(team.assignment.capacity) : '';
    offerSeconds.value = team ? String(team.assignment.offerSeconds) : '';
    timeZone.value = team?.officeHours?.timeZone ?? '';
    for (const day of weekdays) days[day].value = intervalsText(team?.officeHours?.weekly[day]);
    holidays.value = team?.officeHours?.holidays.join(', ') ?? '';
    for (const key of Object.keys(targets) as (keyof SlaPolicy)[]) targets[key].value = minutesText(team?.sla?.[key]);
    renderMembers(team?.memberIds ?? []);
  }

  /** A checkbox per agent, by name; a member who is no active user any more stays, named by id. */
  function renderMembers(chosen: readonly string[]): void {
    const known = new Set(editing.agents.map((agent) => agent.id));
    const people = [
      ...editing.agents.map((agent) => ({ id: agent.id, words: `${agent.name} (${agent.role})` })),
      ...chosen.filter((id) => !known.has(id)).map((id) => ({ id, words: `A former user (${id})` })),
    ];
    members.replaceChildren(
      ...people.map(({ id, words }) => {
        const box = el('input');
        box.type = 'checkbox';
        box.name = 'member';
        box.value = id;
        box.checked = chosen.includes(id);
        const label = el('label', 'inline member');
        label.append(box, ` ${words}`);
        return label;
      }),
    );
    if (people.length === 0) members.append(el('p', 'muted', 'No users yet.'));
  }

  function chosenMembers(): string[] {
    return [...members.querySelectorAll<HTMLInputElement>('input[name=member]')]
      .filter((box) => box.checked)
      .map((box) => box.value);
  }

  /** The body the API takes, read from the fields: empty numbers left to the defaults, empty hours none. */
  function body() {
    const weekly = Object.fromEntries(weekdays.map((day) => [day, intervalsOf(days[day].value)])) as Record<Weekday, Interval[]>;
    const holidayList = holidays.value
      .split(/[,\s]+/)
      .map((day) => day.trim())
      .filter(Boolean);
    const anyHours = timeZone.value.trim() || holidayList.length || weekdays.some((day) => weekly[day].length);
    const minutes = (field: HTMLInputElement) => (field.value.trim() ? Number(field.value) : null);
    const policy = Object.fromEntries(
      Object.entries(targets).map(([key, field]) => [key, minutes(field)]),
    ) as unknown as SlaPolicy;
    return {
      name: name.value.trim(),
      memberIds: chosenMembers(),
      assignment: {
        automatic: automatic.checked,
        ...(capacity.value.trim() ? { capacity: Number(capacity.value) } : {}),
        ...(offerSeconds.value.trim() ? { offerSeconds: Number(offerSeconds.value) } : {}),
      },
      officeHours: anyHours ? { timeZone: timeZone.value.trim(), weekly, holidays: holidayList } : null,
      sla: Object.values(policy).some((value) => value !== null) ? policy : null,
    };
  }

  async function submit(): Promise<void> {
    save.disabled = true;
    clearProblems();
    const sent = body();
    const team = editing.team;
    try {
      const answer = team
        ? await api<{ team: Team }>('PATCH', `/teams/${encodeURIComponent(team.id)}`, sent)
        : await api<{ team: Team }>('POST', '/teams', sent);
      edit(null);
      await deps.saved(answer.team);
    } catch (error) {
      problems.replaceChildren(el('p', 'problems-head', team ? 'The team was not saved:' : 'The team was not created:'));
      const list = el('ul');
      list.append(...refusalItems(deps, error, (path) => place(path, sent)));
      problems.append(list);
      problems.hidden = false;
    } finally {
      save.disabled = false;
    }
  }

  /** A problem's field, from its path in the body sent. */
  function place(path: string, sent: ReturnType<typeof body>): Placed | undefined {
    const parts = path.split('/').slice(1);
    const [top, key, index, ...rest] = parts;
    if (top === 'name') return { words: 'Name', control: name };
    if (top === 'memberIds') {
      const id = index === undefined && key !== undefined ? sent.memberIds[Number(key)] : undefined;
      const who = id && editing.agents.find((agent) => agent.id === id)?.name;
      return { words: who ? `Members (${who})` : 'Members', control: members };
    }
    if (top === 'assignment') {
      if (key === 'capacity') return { words: 'Conversations each at most', control: capacity };
      if (key === 'offerSeconds') return { words: 'Offered for, in seconds', control: offerSeconds };
      return { words: 'Assignment', control: automatic };
    }
    if (top === 'officeHours') {
      if (key === 'timeZone') return { words: 'Time zone', control: timeZone };
      if (key === 'holidays') {
        const day = index === undefined ? undefined : sent.officeHours?.holidays[Number(index)];
        return { words: day ? `Holidays (${day})` : 'Holidays', control: holidays };
      }
      if (key === 'weekly' && index && index in days) {
        const day = index as Weekday;
        const n = rest[0];
        const interval = n === undefined ? undefined : sent.officeHours?.weekly[day][Number(n)];
        const which = interval ? `, interval ${Number(n) + 1} (${interval.from}-${interval.to})` : '';
        return { words: `${dayWords[day]}${which}`, control: days[day] };
      }
      return { words: 'Office hours' };
    }
    if (top === 'sla') {
      if (key && key in targets)
        return { words: `${targetWords[key as keyof SlaPolicy]} target`, control: targets[key as keyof SlaPolicy] };
      return { words: 'Service-level targets' };
    }
    return undefined;
  }

  function clearProblems(): void {
    problems.hidden = true;
    problems.replaceChildren();
    for (const control of form.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  }

  function input(id: string, type: string): HTMLInputElement {
    const node = el('input');
    node.id = id;
    node.type = type;
    return node;
  }

  function numberInput(id: string, placeholder: string, min: number): HTMLInputElement {
    const node = input(id, 'number');
    node.placeholder = placeholder;
    node.min = String(min);
    return node;
  }

  function field(text: string, control: HTMLElement): HTMLLabelElement {
    const label = el('label', '', text);
    label.append(control);
    return label;
  }

  function group(legend: string, ...children: HTMLElement[]): HTMLFieldSetElement {
    const box = el('fieldset', 'team-group');
    box.append(el('legend', '', legend), ...children);
    return box;
  }

  edit(null);
  return {
    panel,
    edit,
    /** The tenant's users, read again: the member checkboxes name them (what is checked stays). */
    setAgents(agents: Agent[]): void {
      editing.agents = agents;
      renderMembers(members.querySelector('input') ? chosenMembers() : (editing.team?.memberIds ?? []));
    },
  };
}
