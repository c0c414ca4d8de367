import type { Notes } from '../notes.js';
import type { ConversationRecord } from '../records.js';
import type { ConversationExtras } from './documents.js';

export interface ExtrasSources {
  /** The agents' private notes: searchable by agents (the search is theirs alone). */
  notes?: Pick<Notes, 'list'>;
  /** The visitor's satisfaction score (`Ratings.satisfactionOf`, `lib/insights/`: above this library, so passed in). */
  satisfactionOf?: (conversationId: string) => Promise<{ score: number } | null>;
}

/** What the indexer reads of a conversation besides its record and transcript. */
export function conversationExtras({ notes, satisfactionOf }: ExtrasSources) {
  return async (record: ConversationRecord): Promise<ConversationExtras> => {
    const [written, satisfaction] = await Promise.all([
      notes ? notes.list(record.conversationId) : [],
      satisfactionOf ? satisfactionOf(record.conversationId) : null,
    ]);
    return {
      notes: written.map((note) => ({
        id: note.id,
        author: 'note',
        text: note.text,
        createdAt: note.createdAt,
        agentName: note.author.name,
      })),
      rating: satisfaction?.score ?? null,
    };
  };
}
