import type { ConversationKeys } from './chat-types.js';

/** The visitor's conversation with one operator, remembered so that a reload continues it. */
export interface SavedConversation {
  load(): ConversationKeys | undefined;
  save(keys: ConversationKeys): void;
  forget(): void;
}

/**
 * Kept in localStorage under `kb-widget:<operatorKey>`. Storage may be blocked (private modes,
 * sandboxed iframes, cookie settings) and even reading `window.localStorage` can throw: then the
 * conversation simply lasts as long as the page.
 */
export function createSavedConversation(storage: () => Storage, operatorKey: string): SavedConversation {
  const key = `kb-widget:${operatorKey}`;
  const attempt = <T>(action: (store: Storage) => T): T | undefined => {
    try {
      return action(storage());
    } catch {
      return undefined;
    }
  };

  return {
    load() {
      const value = attempt((store) => JSON.parse(store.getItem(key) ?? 'null') as Partial<ConversationKeys> | null);
      const { conversationId, visitorToken, userId } = value ?? {};
      if (typeof conversationId !== 'string' || typeof visitorToken !== 'string') return undefined;
      return { conversationId, visitorToken, ...(typeof userId === 'string' ? { userId } : {}) };
    },
    save({ conversationId, visitorToken, userId }) {
      attempt((store) => store.setItem(key, JSON.stringify({ conversationId, visitorToken, userId })));
    },
    forget() {
      attempt((store) => store.removeItem(key));
    },
  };
}
