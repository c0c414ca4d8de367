/*
 * Conversation search on the inbox page, served as `/agent/search.js` (its types stripped like
 * app.ts's): a search box at the head of the inbox list with a status and a channel filter; its
 * results take the list's place (each conversation with its matching messages, the words found
 * marked) until the search is cleared, and "More results" reads the next page through the cursor.
 * Everything from the API goes on the page as text: a snippet's marks are text nodes in <mark>s.
 */

import type { ViewDeps } from './view-deps.js';

interface Summary {
  conversationId: string;
  channel: string;
  status: string;
  contact: { name?: string; email?: string; userId?: string; phone?: string };
  agentName: string | null;
  updatedAt: string;
}

interface Match {
  messageId: string;
  author: 'visitor' | 'ai' | 'agent' | 'note';
  createdAt: string;
  agentName?: string;
  snippet: string;
  highlights: Array<{ start: number; end: number }>;
}

interface SearchPage {
  results: Array<{ conversation: Summary; matches: Match[] }>;
  nextCursor: string | null;
}

export interface SearchDeps extends Pick<ViewDeps, 'api' | 'el' | 'showError' | 'messageOf' | 'time'> {
  /** Opens a conversation in the inbox. */
  open(conversationId: string): void;
  /** Shows the inbox's own list (false while results are shown). */
  showList(shown: boolean): void;
}

const labels = {
  author: { visitor: 'Customer', ai: 'AI', agent: 'Agent', note: 'Private note' },
  status: { ai: 'AI', waiting_for_agent: 'Waiting', agent: 'With agent', closed: 'Closed' } as Record<string, string>,
  channel: { widget: 'Widget', messaging: 'WhatsApp' } as Record<string, string>,
};

export function createSearchPanel({ api, el, showError, messageOf, time, open, showList }: SearchDeps) {
  const form = el('form', 'search');
  form.id = 'search';
  form.setAttribute('role', 'search');
  const input = el('input');
  input.id = 'search-text';
  input.type = 'search';
  input.maxLength = 200;
  input.placeholder = 'Search conversations…';
  input.setAttribute('aria-label', 'Search conversations');
  const status = select('search-status', 'Status', [['', 'Any status'], ...Object.entries(labels.status)]);
  const channel = select('search-channel', 'Channel', [['', 'Any channel'], ...Object.entries(labels.channel)]);
  const go = el('button', undefined, 'Search');
  go.type = 'submit';
  const clear = el('button', 'quiet', 'Clear');
  clear.type = 'button';
  clear.hidden = true;
  form.append(input, status, channel, go, clear);

  const results = el('section', 'search-results');
  results.id = 'search-results';
  results.hidden = true;
  const summary = el('p', 'muted');
  summary.setAttribute('aria-live', 'polite');
  const list = el('ol');
  const more = el('button', 'secondary', 'More results');
  more.type = 'button';
  more.hidden = true;
  results.append(summary, list, more);

  /** The search the results are of: a new one (or a sign-out) makes the answers of an older one stale. */
  let current = 0;
  let cursor: string | null = null;
  let shown = 0;

  function select(id: string, label: string, options: string[][]): HTMLSelectElement {
    const box = el('select');
    box.id = id;
    box.setAttribute('aria-label', label);
    for (const [value, text] of options) {
      const option = el('option', undefined, text);
      option.value = value!;
      box.append(option);
    }
    return box;
  }

  /** The snippet as text, with each word found in a <mark>. */
  function snippet(match: Match): HTMLSpanElement {
    const span = el('span', 'snippet');
    let at = 0;
    for (const { start, end } of match.highlights) {
      if (start < at || end > match.snippet.length) continue;
      span.append(match.snippet.slice(at, start), el('mark', undefined, match.snippet.slice(start, end)));
      at = end;
    }
    span.append(match.snippet.slice(at));
    return span;
  }

  function contactName(contact: Summary['contact']): string {
    return contact.name || contact.email || contact.phone || contact.userId || 'Visitor';
  }

  function render(page: SearchPage) {
    for (const { conversation, matches } of page.results) {
      const item = el('li');
      item.dataset.conversationId = conversation.conversationId;
      const button = el('button');
      button.type = 'button';
      const row = el('span', 'row');
      row.append(el('span', 'who', contactName(conversation.contact)), el('span', 'when', time(conversation.updatedAt)));
      const badges = el('span', 'badges');
      badges.append(
        el('span', `badge ${conversation.channel}`, labels.channel[conversation.channel] ?? conversation.channel),
        el('span', `badge status-${conversation.status}`, labels.status[conversation.status] ?? conversation.status),
      );
      button.append(row, badges);
      for (const match of matches) {
        const line = el('span', `match author-${match.author}`);
        const who = match.agentName ? `${labels.author[match.author]} (${match.agentName})` : labels.author[match.author];
        line.append(el('span', 'meta', `${who} · ${time(match.createdAt)}`), snippet(match));
        button.append(line);
      }
      button.addEventListener('click', () => open(conversation.conversationId));
      item.append(button);
      list.append(item);
    }
    shown += page.results.length;
    cursor = page.nextCursor;
    more.hidden = cursor === null;
    summary.textContent =
      shown === 0 ? 'No conversation matches.' : `${shown} conversation${shown === 1 ? '' : 's'}${cursor ? ' so far' : ''}.`;
  }

  async function run(next: boolean) {
    const search = next ? current : ++current;
    const query = new URLSearchParams({ q: input.value.trim() });
    if (next && cursor) query.set('cursor', cursor);
    else {
      if (status.value) query.set('status', status.value);
      if (channel.value) query.set('channel', channel.value);
    }
    more.disabled = true;
    try {
      const page = await api<SearchPage>('GET', `/agent/search?${query}`);
      if (search !== current) return;
      if (!next) {
        list.replaceChildren();
        shown = 0;
      }
      showError('');
      render(page);
      results.hidden = false;
      clear.hidden = false;
      showList(false);
    } catch (error) {
      if (search === current) showError(messageOf(error));
    } finally {
      more.disabled = false;
    }
  }

  function reset() {
    current++;
    cursor = null;
    shown = 0;
    input.value = '';
    list.replaceChildren();
    results.hidden = true;
    clear.hidden = true;
    more.hidden = true;
    showList(true);
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (input.value.trim()) void run(false);
  });
  more.addEventListener('click', () => void run(true));
  clear.addEventListener('click', reset);

  return { form, results, reset };
}

export type SearchPanel = ReturnType<typeof createSearchPanel>;
