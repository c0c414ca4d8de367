/*
 * Canned replies on the inbox page, served as `/agent/canned-replies.js` (its types stripped like
 * app.ts's). In the reply box, `/` and the start of a shortcut (or a word of a title) opens a list of
 * the matching replies; choosing one (click, or arrows and Enter/Tab) asks the API to fill it in for
 * the open conversation (`…/canned-replies/{id}/preview`: the server fills the placeholders) and
 * puts the text in the box, in place of what was typed, for the agent to read, change and send.
 * The header's "Canned replies" opens a panel to list, add, edit and delete them. app.ts mounts the
 * elements; everything from the API goes on the page as text.
 */

import type { ViewDeps } from './view-deps.js';

// The API's shapes as this module reads them (api/schemas/canned-replies.ts).
type Scope = 'tenant' | 'team' | 'personal';

interface CannedReply {
  id: string;
  scope: Scope;
  teamId: string | null;
  shortcut: string;
  title: string;
  text: string;
  placeholders: string[];
  editable: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CannedRepliesDeps extends Pick<ViewDeps, 'api' | 'el' | 'showError' | 'messageOf' | 'detailsOf'> {
  /** The reply box the shortcuts are typed in. */
  box: HTMLTextAreaElement;
  /** The conversation open now, if any. */
  selected(): string | null;
  /** The user's teams, whose replies are listed too (none until teams come to the page). */
  teamIds?(): string[];
}

/** How many matches the reply box offers at once. */
const shownSuggestions = 8;

const scopeWords: Record<Scope, string> = { tenant: 'Everyone', team: 'Team', personal: 'Only me' };

/** The `/word` just before the caret: where it starts, and the word (empty right after the `/`). */
function slashQuery(box: HTMLTextAreaElement): { start: number; query: string } | null {
  const before = box.value.slice(0, box.selectionStart ?? box.value.length);
  const match = /(?:^|\s)\/([^\s/]{0,40})$/.exec(before);
  return match ? { start: before.length - match[1]!.length - 1, query: match[1]! } : null;
}

export function createCannedReplies({ api, el, showError, messageOf, detailsOf, box, selected, teamIds }: CannedRepliesDeps) {
  /** The list route: the matches of `query` (all when empty), at most `limit` of them (the API's default when none). */
  const listPath = (query: string, limit?: number) => {
    const params = new URLSearchParams();
    if (query) params.set('q', query);
    if (limit) params.set('limit', String(limit));
    const teams = teamIds?.() ?? [];
    if (teams.length > 0) params.set('teamId', teams.join(','));
    const search = params.toString();
    return `/agent/canned-replies${search ? `?${search}` : ''}`;
  };

  // ---- Suggestions in the reply box ------------------------------------------------------------
  const suggestions = el('ul', 'canned-suggestions');
  suggestions.id = 'canned-suggestions';
  suggestions.setAttribute('role', 'listbox');
  suggestions.setAttribute('aria-label', 'Canned replies');
  suggestions.hidden = true;
  const suggesting: { replies: CannedReply[]; active: number; asked: number } = { replies: [], active: 0, asked: 0 };

  const closeSuggestions = () => {
    suggesting.asked++;
    suggesting.replies = [];
    suggestions.hidden = true;
    suggestions.replaceChildren();
  };

  function renderSuggestions() {
    suggestions.replaceChildren();
    suggestions.hidden = false;
    if (suggesting.replies.length === 0) {
      suggestions.append(el('li', 'muted', 'No canned reply matches.'));
      return;
    }
    suggesting.replies.forEach((reply, i) => {
      const item = el('li');
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', String(i === suggesting.active));
      item.dataset.shortcut = reply.shortcut;
      item.append(
        el('span', 'shortcut', `/${reply.shortcut}`),
        el('span', 'title', reply.title),
        el('span', 'excerpt', reply.text),
      );
      // mousedown, not click: the box keeps its focus and caret.
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        void choose(reply);
      });
      suggestions.append(item);
    });
  }

  async function suggest() {
    const typed = slashQuery(box);
    if (!typed || box.disabled) return closeSuggestions();
    const asked = ++suggesting.asked;
    try {
      const { cannedReplies } = await api<{ cannedReplies: CannedReply[] }>('GET', listPath(typed.query, shownSuggestions));
      if (asked !== suggesting.asked) return;
      suggesting.replies = cannedReplies;
      suggesting.active = 0;
      renderSuggestions();
    } catch (error) {
      if (asked === suggesting.asked) showError(messageOf(error));
    }
  }

  /** The reply filled in for the open conversation, in place of the `/word` typed. */
  async function choose(reply: CannedReply) {
    const conversationId = selected();
    const typed = slashQuery(box);
    closeSuggestions();
    if (!conversationId || !typed) return;
    showError('');
    try {
      const { text } = await api<{ text: string }>(
        'GET',
        `/agent/conversations/${encodeURIComponent(conversationId)}/canned-replies/${encodeURIComponent(reply.id)}/preview`,
      );
      if (selected() !== conversationId) return;
      const end = typed.start + 1 + typed.query.length;
      box.setRangeText(text, typed.start, end, 'end');
      box.focus();
    } catch (error) {
      showError(messageOf(error));
    }
  }

  box.addEventListener('input', () => void suggest());
  box.addEventListener('blur', closeSuggestions);
  box.addEventListener('keydown', (event) => {
    if (suggestions.hidden || suggesting.replies.length === 0) {
      if (event.key === 'Escape') closeSuggestions();
      return;
    }
    const count = suggesting.replies.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      suggesting.active = (suggesting.active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
      renderSuggestions();
    } else if ((event.key === 'Enter' && !event.ctrlKey && !event.metaKey) || event.key === 'Tab') {
      void choose(suggesting.replies[suggesting.active]!);
    } else if (event.key === 'Escape') {
      closeSuggestions();
    } else return;
    event.preventDefault();
  });

  // ---- The management panel ---------------------------------------------------------------------
  const manageButton = el('button', 'quiet', 'Canned replies');
  manageButton.type = 'button';
  manageButton.id = 'show-canned-replies';
  const panel = el('dialog', 'canned-panel');
  panel.id = 'canned-replies';
  panel.setAttribute('aria-label', 'Canned replies');
  const list = el('ul', 'canned-list');
  const panelError = el('p', 'error');
  panelError.setAttribute('role', 'alert');
  panelError.hidden = true;

  const form = el('form', 'canned-form');
  const heading = el('h3');
  const shortcut = input('Shortcut', 'refund');
  shortcut.maxLength = 40;
  const title = input('Title', 'Refund on its way');
  title.maxLength = 200;
  const text = el('textarea');
  text.rows = 4;
  text.maxLength = 4096;
  text.placeholder = 'Hi {{contact.first_name | there}}, … {{agent.name}}';
  text.setAttribute('aria-label', 'Text');
  const scope = el('select');
  scope.setAttribute('aria-label', 'Shared with');
  for (const value of ['personal', 'tenant', 'team'] as const) {
    const option = el('option', undefined, scopeWords[value]);
    option.value = value;
    scope.append(option);
  }
  const teamId = input('Team id', 'the team’s id');
  const save = el('button', undefined, 'Save');
  save.type = 'submit';
  const cancel = el('button', 'quiet', 'Cancel edit');
  cancel.type = 'button';
  const close = el('button', 'quiet', 'Close');
  close.type = 'button';
  const hint = el(
    'p',
    'muted',
    'Placeholders, filled in when sent: {{contact.name}}, {{contact.first_name}}, {{contact.email}}, {{contact.phone}}, {{agent.name}}, {{agent.first_name}}, {{agent.email}}, {{conversation.id}}; ' +
      '{{contact.first_name | there}} falls back to “there”. Only admins share replies with everyone or a team.',
  );
  form.append(
    heading,
    field('Shortcut', shortcut),
    field('Title', title),
    field('Text', text),
    field('Shared with', scope),
    field('Team id', teamId),
    hint,
    save,
    cancel,
  );
  const head = el('div', 'panel-head');
  head.append(el('h2', undefined, 'Canned replies'), close);
  panel.append(head, panelError, list, form);

  const panelState: { replies: CannedReply[]; editing: CannedReply | null; confirming: string | null } = {
    replies: [],
    editing: null,
    confirming: null,
  };

  function input(label: string, placeholder: string): HTMLInputElement {
    const control = el('input');
    control.placeholder = placeholder;
    control.setAttribute('aria-label', label);
    return control;
  }

  function field(label: string, control: HTMLElement): HTMLLabelElement {
    const wrapper = el('label', 'canned-field');
    wrapper.append(el('span', undefined, label), control);
    return wrapper;
  }

  function showPanelError(message: string) {
    panelError.textContent = message;
    panelError.hidden = !message;
  }

  function fillForm(reply: CannedReply | null) {
    panelState.editing = reply;
    heading.textContent = reply ? `Edit /${reply.shortcut}` : 'Add a canned reply';
    shortcut.value = reply?.shortcut ?? '';
    title.value = reply?.title ?? '';
    text.value = reply?.text ?? '';
    scope.value = reply?.scope ?? 'personal';
    teamId.value = reply?.teamId ?? '';
    cancel.hidden = !reply;
    showTeam();
  }

  const showTeam = () => {
    teamId.closest('label')!.hidden = scope.value !== 'team';
  };
  scope.addEventListener('change', showTeam);

  function renderList() {
    list.replaceChildren();
    if (panelState.replies.length === 0) list.append(el('li', 'muted', 'No canned replies yet.'));
    for (const reply of panelState.replies) {
      const item = el('li', 'canned-reply');
      item.dataset.shortcut = reply.shortcut;
      const line = el('div', 'row');
      line.append(
        el('span', 'shortcut', `/${reply.shortcut}`),
        el('span', 'title', reply.title),
        el('span', 'badge', reply.scope === 'team' ? `Team ${reply.teamId}` : scopeWords[reply.scope]),
      );
      item.append(line, el('span', 'excerpt', reply.text));
      if (reply.editable) {
        const actions = el('div', 'actions');
        const edit = el('button', 'quiet', 'Edit');
        edit.type = 'button';
        edit.addEventListener('click', () => fillForm(reply));
        const confirming = panelState.confirming === reply.id;
        const remove = el('button', 'danger', confirming ? 'Really delete?' : 'Delete');
        remove.type = 'button';
        remove.addEventListener('click', () => void (confirming ? removeReply(reply) : confirm(reply.id)));
        actions.append(edit, remove);
        item.append(actions);
      }
      list.append(item);
    }
  }

  function confirm(id: string) {
    panelState.confirming = id;
    renderList();
  }

  async function load() {
    try {
      panelState.replies = (await api<{ cannedReplies: CannedReply[] }>('GET', listPath(''))).cannedReplies;
      renderList();
    } catch (error) {
      showPanelError(messageOf(error));
    }
  }

  async function removeReply(reply: CannedReply) {
    showPanelError('');
    panelState.confirming = null;
    try {
      await api('DELETE', `/agent/canned-replies/${encodeURIComponent(reply.id)}`);
      if (panelState.editing?.id === reply.id) fillForm(null);
    } catch (error) {
      showPanelError(messageOf(error));
    }
    await load();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });

  async function submit() {
    showPanelError('');
    const body = {
      shortcut: shortcut.value.trim(),
      title: title.value,
      text: text.value,
      scope: scope.value,
      ...(scope.value === 'team' ? { teamId: teamId.value.trim() } : {}),
    };
    save.disabled = true;
    try {
      const editing = panelState.editing;
      if (editing) await api('PUT', `/agent/canned-replies/${encodeURIComponent(editing.id)}`, body);
      else await api('POST', '/agent/canned-replies', body);
      fillForm(null);
      await load();
    } catch (error) {
      // The API's refusal field by field (`/shortcut: …`), or its message when it gave none.
      const details = detailsOf(error).map((detail) => `${detail.path ? `${detail.path.slice(1)}: ` : ''}${detail.message}`);
      showPanelError([messageOf(error), ...details].join(' · '));
    } finally {
      save.disabled = false;
    }
  }

  cancel.addEventListener('click', () => fillForm(null));
  close.addEventListener('click', () => panel.close());
  manageButton.addEventListener('click', () => {
    showError('');
    showPanelError('');
    fillForm(null);
    panel.showModal();
    void load();
  });

  return {
    /** The list of matches, shown above the reply box while `/` and a word are typed. */
    suggestions,
    /** The header's button that opens the panel, and the panel (a dialog). */
    manageButton,
    panel,
    /** At sign-out: nothing of the user's is left on the page. */
    reset() {
      closeSuggestions();
      if (panel.open) panel.close();
      panelState.replies = [];
      list.replaceChildren();
      fillForm(null);
    },
  };
}
