/*
 * Private notes and mentions on the inbox page, served as `/agent/notes.js` (its types stripped like
 * app.ts's): a note composer below the reply box, notes marked private in the transcript, and the
 * notifications bell in the header, whose list opens the conversation a colleague mentioned the user
 * in. app.ts mounts the elements and hands the events of its streams over; everything from the API
 * goes on the page as text.
 */

import type { ViewDeps } from './view-deps.js';

interface Person {
  userId: string;
  name: string;
}

/** A message of the transcript as this module reads it: a note is an agent's `private` message. */
export interface NoteLike {
  author?: string;
  private?: boolean;
  mentions?: Person[];
}

export interface AgentNotification {
  id: string;
  type: 'mention';
  conversationId: string;
  noteId: string;
  by: Person;
  excerpt: string;
  createdAt: string;
  read: boolean;
}

export interface NotificationList {
  notifications: AgentNotification[];
  unread: number;
}

export interface NotesDeps extends Pick<ViewDeps, 'api' | 'el' | 'showError' | 'messageOf' | 'time'> {
  /** The conversation open now, if any. */
  selected(): string | null;
  /** Opens a conversation in the inbox. */
  open(conversationId: string): void;
  /** Shows a message in the open transcript at once (the stream's copy of it is the same id). */
  show(message: unknown): void;
}

export function createNotesPanel({ api, el, showError, messageOf, time, selected, open, show }: NotesDeps) {
  // ---- The composer: notes may be written whatever the status, by whoever has the conversation.
  const composer = el('form', 'reply note');
  composer.id = 'note';
  const text = el('textarea');
  text.id = 'note-text';
  text.rows = 2;
  text.maxLength = 4096;
  text.placeholder = 'Private note for your team (never sent to the customer); @ and a colleague’s name or e-mail mentions them';
  text.setAttribute('aria-label', 'Private note');
  const add = el('button', 'note-button', 'Add note');
  add.type = 'submit';
  composer.append(text, add);
  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    void writeNote();
  });
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) composer.requestSubmit();
  });

  async function writeNote() {
    const conversationId = selected();
    if (!text.value.trim() || !conversationId) return;
    showError('');
    add.disabled = true;
    try {
      const note = await api<{ id: string; text: string; createdAt: string; author: Person; mentions: Person[] }>(
        'POST',
        `/agent/conversations/${encodeURIComponent(conversationId)}/notes`,
        { text: text.value, noteId: crypto.randomUUID() },
      );
      text.value = '';
      if (selected() === conversationId)
        show({
          id: note.id,
          author: 'agent',
          text: note.text,
          createdAt: note.createdAt,
          agent: { name: note.author.name },
          private: true,
          mentions: note.mentions,
        });
    } catch (error) {
      showError(messageOf(error));
    } finally {
      add.disabled = false;
    }
  }

  // ---- The bell: the user's notifications, live from the inbox stream.
  const bell = el('div', 'notifications');
  const toggle = el('button', 'quiet');
  toggle.id = 'notifications-toggle';
  toggle.type = 'button';
  toggle.setAttribute('aria-expanded', 'false');
  const panel = el('div', 'notifications-panel');
  panel.hidden = true;
  const list = el('ul');
  list.id = 'notifications';
  const empty = el('p', 'muted', 'No notifications.');
  const readAll = el('button', 'quiet', 'Mark all read');
  readAll.type = 'button';
  panel.append(readAll, empty, list);
  bell.append(toggle, panel);

  const state: NotificationList = { notifications: [], unread: 0 };

  toggle.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute('aria-expanded', String(!panel.hidden));
  });
  readAll.addEventListener('click', () => void markRead(undefined));

  async function markRead(ids: string[] | undefined) {
    try {
      const { unread } = await api<{ unread: number }>('POST', '/agent/notifications/read', ids ? { ids } : {});
      for (const notification of state.notifications) if (!ids || ids.includes(notification.id)) notification.read = true;
      state.unread = unread;
      render();
    } catch (error) {
      showError(messageOf(error));
    }
  }

  function render() {
    toggle.textContent = state.unread > 0 ? `Notifications (${state.unread})` : 'Notifications';
    toggle.classList.toggle('unread', state.unread > 0);
    empty.hidden = state.notifications.length > 0;
    readAll.disabled = state.unread === 0;
    list.replaceChildren();
    for (const notification of state.notifications) {
      const item = el('li', notification.read ? 'read' : 'unread');
      item.dataset.notificationId = notification.id;
      item.dataset.conversationId = notification.conversationId;
      const button = el('button');
      button.type = 'button';
      button.append(
        el('span', 'meta', `${notification.by.name} mentioned you · ${time(notification.createdAt)}`),
        el('span', 'text', notification.excerpt),
      );
      button.addEventListener('click', () => {
        panel.hidden = true;
        toggle.setAttribute('aria-expanded', 'false');
        open(notification.conversationId);
        if (!notification.read) void markRead([notification.id]);
      });
      item.append(button);
      list.append(item);
    }
  }
  render();

  return {
    composer,
    bell,

    /** Marks a note of the transcript as private, with whom it mentions. */
    decorate(item: HTMLLIElement, message: NoteLike) {
      // Other private entries (a change of assignment, by the system) are not notes.
      if (!message.private || message.author !== 'agent') return;
      item.classList.add('private');
      item.querySelector('.meta')?.prepend(el('span', 'private-label', 'Private note'), ' · ');
      if (message.mentions?.length)
        item.append(el('span', 'mentions', `Mentions ${message.mentions.map((person) => person.name).join(', ')}`));
    },

    /** The stream's list (at its start, and after it reconnected). */
    showNotifications(all: NotificationList) {
      state.notifications = [...all.notifications];
      state.unread = all.unread;
      render();
    },

    /** A new notification, live. */
    notify(notification: AgentNotification) {
      if (state.notifications.some((known) => known.id === notification.id)) return;
      state.notifications.unshift(notification);
      if (!notification.read) state.unread++;
      render();
    },

    reset() {
      state.notifications = [];
      state.unread = 0;
      text.value = '';
      panel.hidden = true;
      render();
    },
  };
}

export type NotesPanel = ReturnType<typeof createNotesPanel>;
