/*
 * The routing of the Teams view (teams.ts), served as `/agent/team-routing.js`: the ordered rules
 * that send a handoff to a team (its team, channel, who asked, keywords comma-separated) and the
 * default team, saved whole with `PUT /team-routing`; the API's refusal said rule by rule. A rule's
 * operator, which the page does not edit, is kept as it is. Everything from the API goes on the page
 * as text.
 */

import { refusalItems, type Placed } from './team-form.js';
import type { ViewDeps } from './view-deps.js';

// The API's shapes as this view reads them (api/schemas/teams.ts).
type Channel = 'widget' | 'messaging';
type HandoffBy = 'visitor' | 'ai' | 'agent';

export interface Rule {
  teamId: string;
  channel?: Channel;
  operatorId?: string;
  handoffBy?: HandoffBy;
  keywords?: string[];
}

export interface Routing {
  rules: Rule[];
  defaultTeamId: string | null;
}

interface NamedTeam {
  id: string;
  name: string;
}

/** A rule as the form holds it: the keywords as typed. */
interface Draft {
  teamId: string;
  channel: Channel | '';
  handoffBy: HandoffBy | '';
  keywords: string;
  operatorId?: string;
}

const channelChoices: [string, string][] = [
  ['', 'Any channel'],
  ['widget', 'Widget'],
  ['messaging', 'WhatsApp'],
];
const handoffChoices: [string, string][] = [
  ['', 'Anyone asked'],
  ['visitor', 'The customer asked'],
  ['ai', 'The AI could not answer'],
  ['agent', 'An agent asked'],
];
const ruleFieldWords: Record<string, string> = {
  teamId: 'team',
  channel: 'channel',
  operatorId: 'operator',
  handoffBy: 'who asked',
  keywords: 'keywords',
};

export function createRoutingEditor(deps: Pick<ViewDeps, 'api' | 'el' | 'messageOf' | 'detailsOf'>) {
  const { api, el } = deps;
  const panel = el('section', 'panel routing');
  panel.id = 'routing';
  const rulesList = el('ol', 'routing-rules');
  rulesList.id = 'routing-rules';
  const empty = el('p', 'muted', 'No rules: every handoff goes to the default team.');
  const add = el('button', 'secondary', 'Add a rule');
  add.id = 'routing-add';
  add.type = 'button';
  const defaultTeam = el('select');
  defaultTeam.id = 'routing-default';
  const defaultLabel = el('label', 'routing-default', 'Default team (when no rule matches) ');
  defaultLabel.append(defaultTeam);
  const problems = el('div', 'problems');
  problems.id = 'routing-problems';
  problems.setAttribute('role', 'alert');
  problems.hidden = true;
  const save = el('button', '', 'Save routing');
  save.id = 'routing-save';
  save.type = 'button';
  const note = el('span', 'routing-note');
  note.id = 'routing-note';
  note.setAttribute('role', 'status');
  const buttons = el('div', 'actions');
  buttons.append(save, note);
  panel.append(
    el('h3', '', 'Routing'),
    el('p', 'muted', 'Rules are tried in order at each handoff: the first whose every condition holds sends it to its team.'),
    empty,
    rulesList,
    add,
    defaultLabel,
    problems,
    buttons,
  );

  const state: { teams: NamedTeam[]; rules: Draft[]; defaultTeamId: string } = { teams: [], rules: [], defaultTeamId: '' };
  /** Each rule's controls by field, to mark the one a refusal names. */
  let controls: Array<Record<string, HTMLElement>> = [];

  add.addEventListener('click', () => {
    const teamId = state.teams[0]?.id;
    if (!teamId) return;
    state.rules.push({ teamId, channel: '', handoffBy: '', keywords: '' });
    note.textContent = '';
    render();
  });
  defaultTeam.addEventListener('change', () => {
    state.defaultTeamId = defaultTeam.value;
    note.textContent = '';
  });
  save.addEventListener('click', () => void submit());

  function options(select: HTMLSelectElement, choices: [string, string][], value: string): void {
    // A team removed meanwhile stays chosen, and is named as such, until another is chosen.
    const all = choices.some(([id]) => id === value) ? choices : [...choices, [value, 'Removed team'] as [string, string]];
    select.replaceChildren(...all.map(([id, words]) => new Option(words, id)));
    select.value = value;
  }

  function render(): void {
    const teamChoices = state.teams.map((team): [string, string] => [team.id, team.name]);
    options(defaultTeam, [['', 'No team (the common queue)'], ...teamChoices], state.defaultTeamId);
    add.disabled = state.teams.length === 0;
    add.title = add.disabled ? 'Create a team first.' : '';
    empty.hidden = state.rules.length > 0;
    controls = [];
    rulesList.replaceChildren(
      ...state.rules.map((rule, index) => {
        const item = el('li', 'rule');
        item.dataset.index = String(index);
        const team = el('select', 'rule-team');
        team.setAttribute('aria-label', `Rule ${index + 1}: team`);
        options(team, teamChoices, rule.teamId);
        team.addEventListener('change', () => (rule.teamId = team.value));
        const channel = el('select', 'rule-channel');
        channel.setAttribute('aria-label', `Rule ${index + 1}: channel`);
        options(channel, channelChoices, rule.channel);
        channel.addEventListener('change', () => (rule.channel = channel.value as Draft['channel']));
        const handoffBy = el('select', 'rule-handoff');
        handoffBy.setAttribute('aria-label', `Rule ${index + 1}: who asked`);
        options(handoffBy, handoffChoices, rule.handoffBy);
        handoffBy.addEventListener('change', () => (rule.handoffBy = handoffBy.value as Draft['handoffBy']));
        const keywords = el('input', 'rule-keywords');
        keywords.placeholder = 'Keywords, comma-separated (optional)';
        keywords.setAttribute('aria-label', `Rule ${index + 1}: keywords`);
        keywords.value = rule.keywords;
        keywords.addEventListener('input', () => (rule.keywords = keywords.value));
        item.append(
          el('span', 'rule-number', `${index + 1}.`),
          el('span', 'rule-words', 'To'),
          team,
          channel,
          handoffBy,
          keywords,
        );
        if (rule.operatorId) item.append(el('span', 'muted', `operator ${rule.operatorId} only`));
        item.append(
          move('↑', `Move rule ${index + 1} up`, index, -1),
          move('↓', `Move rule ${index + 1} down`, index, 1),
          button('Remove', 'quiet rule-remove', `Remove rule ${index + 1}`, () => state.rules.splice(index, 1)),
        );
        controls.push({ teamId: team, channel, handoffBy, keywords, operatorId: item });
        return item;
      }),
    );
  }

  function move(text: string, label: string, index: number, by: -1 | 1): HTMLButtonElement {
    const node = button(text, 'quiet', label, () => {
      const [rule] = state.rules.splice(index, 1);
      if (rule) state.rules.splice(index + by, 0, rule);
    });
    node.disabled = index + by < 0 || index + by >= state.rules.length;
    return node;
  }

  function button(text: string, className: string, label: string, change: () => void): HTMLButtonElement {
    const node = el('button', className, text);
    node.type = 'button';
    node.setAttribute('aria-label', label);
    node.addEventListener('click', () => {
      change();
      note.textContent = '';
      render();
    });
    return node;
  }

  function body(): Routing {
    return {
      rules: state.rules.map((rule) => {
        const keywords = rule.keywords
          .split(',')
          .map((word) => word.trim())
          .filter(Boolean);
        return {
          teamId: rule.teamId,
          ...(rule.channel ? { channel: rule.channel } : {}),
          ...(rule.operatorId ? { operatorId: rule.operatorId } : {}),
          ...(rule.handoffBy ? { handoffBy: rule.handoffBy } : {}),
          ...(keywords.length ? { keywords } : {}),
        };
      }),
      defaultTeamId: state.defaultTeamId || null,
    };
  }

  async function submit(): Promise<void> {
    save.disabled = true;
    problems.hidden = true;
    note.textContent = 'Saving…';
    for (const control of panel.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
    try {
      const { routing } = await api<{ routing: Routing }>('PUT', '/team-routing', body());
      show(routing);
      note.textContent = 'Saved ✓';
    } catch (error) {
      note.textContent = '';
      const list = el('ul');
      list.append(...refusalItems(deps, error, place));
      problems.replaceChildren(el('p', 'problems-head', 'The routing was not saved:'), list);
      problems.hidden = false;
    } finally {
      save.disabled = false;
    }
  }

  /** A problem's rule and field, from its path (`/rules/0/teamId`, `/defaultTeamId`). */
  function place(path: string): Placed | undefined {
    if (path === '/defaultTeamId') return { words: 'Default team', control: defaultTeam };
    const [, index, key] = /^\/rules\/(\d+)(?:\/(\w+))?/.exec(path) ?? [];
    if (index === undefined) return path.startsWith('/rules') ? { words: 'Rules' } : undefined;
    const n = Number(index);
    const words = key ? `Rule ${n + 1}, ${ruleFieldWords[key] ?? key}` : `Rule ${n + 1}`;
    return { words, control: (key && controls[n]?.[key]) || (rulesList.children[n] as HTMLElement | undefined) };
  }

  function show(routing: Routing): void {
    state.rules = routing.rules.map((rule) => ({
      teamId: rule.teamId,
      channel: rule.channel ?? '',
      handoffBy: rule.handoffBy ?? '',
      keywords: (rule.keywords ?? []).join(', '),
      ...(rule.operatorId ? { operatorId: rule.operatorId } : {}),
    }));
    state.defaultTeamId = routing.defaultTeamId ?? '';
    render();
  }

  return {
    panel,
    /** The routing as the API has it (read when the view opens, or after a team was removed). */
    show(routing: Routing): void {
      problems.hidden = true;
      note.textContent = '';
      show(routing);
    },
    /** The tenant's teams, read again: the selects name them (the rules being edited stay). */
    setTeams(teams: NamedTeam[]): void {
      state.teams = teams;
      render();
    },
  };
}
