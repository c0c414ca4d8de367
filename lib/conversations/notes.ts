import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { ChatMessage } from './chat-message.js';
import { interleave } from './interleave.js';
import type { LiveChannels, Listening } from './live-channels.js';

/** A colleague as a note names them: who wrote it, whom it mentions. */
export interface NotePerson {
  userId: string;
  name: string;
}

/**
 * An agent's private note on a conversation: for the tenant's people only. Notes are kept apart
 * from the transcript (a list of their own), so nothing that reads the transcript for the visitor
 * or the channel (the widget's history and stream, delivery, outbound events) can ever carry one.
 */
export interface PrivateNote {
  id: string;
  conversationId: string;
  text: string;
  createdAt: string;
  author: NotePerson;
  mentions: NotePerson[];
}

/** A note as the agent's view of the transcript shows it: a message marked private, with its author. */
export type NoteMessage = Pick<ChatMessage, 'id' | 'text' | 'createdAt' | 'aiGenerated'> & {
  author: 'agent';
  agent: { name: string };
  private: true;
  mentions: NotePerson[];
};

/** Notes one conversation may hold: a bound on what a page of the transcript reads. */
export const notesPerConversation = 1_000;

export class NoteLimitError extends Error {
  override readonly name = 'NoteLimitError';
}

/** The same note id was used already by another author: an idempotency key is one author's. */
export class NoteIdTakenError extends Error {
  override readonly name = 'NoteIdTakenError';
}

export function noteKeys(prefix: string) {
  return {
    /** The notes in the order they were written, as JSON. */
    list: (conversationId: string) => `${prefix}:conversation:${conversationId}:notes`,
    /** Each note's id, claimed once (the note's JSON): a retried request finds its first note. */
    ids: (conversationId: string) => `${prefix}:conversation:${conversationId}:note-ids`,
    /** Announced to the agents following the conversation; never the visitor's channel. */
    live: (conversationId: string) => `${prefix}:conversation-notes-live:${conversationId}`,
  };
}

/**
 * Claims the note's id (KEYS[2]) and appends it (KEYS[1]) in one step, so two copies of one request
 * keep one note. Answers `{created, json}` as an array: 1 and the note, or 0 and the note first
 * stored under the id; `full` when the conversation holds its limit (ARGV[3]).
 */
const addNoteScript = `
local existing = redis.call('HGET', KEYS[2], ARGV[1])
if existing then return {0, existing} end
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('RPUSH', KEYS[1], ARGV[2])
return {1, ARGV[2]}`;

/**
 * Agents' private notes per conversation in Redis, and their live announcement on a channel of their
 * own (`live`), which only the agent's conversation stream follows.
 */
export function createNotes(redis: RedisClient, prefix: string, limit = notesPerConversation) {
  const keys = noteKeys(prefix);
  return tagUnavailable('redis', {
    /**
     * Stores the note unless its id was taken: then the first note stands and is answered
     * (`created: false`), as an idempotency key does; another author's note under the id is refused.
     * A new note is published to the conversation's agents.
     */
    async add(note: PrivateNote): Promise<{ note: PrivateNote; created: boolean }> {
      const json = JSON.stringify(note);
      const answer = await redis.eval(addNoteScript, {
        keys: [keys.list(note.conversationId), keys.ids(note.conversationId)],
        arguments: [note.id, json, String(limit)],
      });
      if (answer === 'full') throw new NoteLimitError(`A conversation holds at most ${limit} notes.`);
      const [created, stored] = answer as [number, string];
      const first = JSON.parse(stored) as PrivateNote;
      if (!created && first.author.userId !== note.author.userId)
        throw new NoteIdTakenError(`Note ${note.id} was written by another agent: use a new noteId.`);
      if (created) await redis.publish(keys.live(note.conversationId), json);
      return { note: first, created: created === 1 };
    },

    /** The conversation's notes, oldest first. */
    async list(conversationId: string): Promise<PrivateNote[]> {
      return (await redis.lRange(keys.list(conversationId), 0, -1)).map((json) => JSON.parse(json) as PrivateNote);
    },
  });
}

export type Notes = ReturnType<typeof createNotes>;

/**
 * Follows the notes of a conversation as they are written: `deliver` gets each new note, and after
 * the subscriber reconnected every note again (what the gap held reached nobody): the caller keeps
 * the ids it passed on.
 */
export function createNoteFollower(channels: LiveChannels, notes: Pick<Notes, 'list'>, prefix: string) {
  const keys = noteKeys(prefix);
  return {
    follow(conversationId: string, deliver: (note: PrivateNote) => void): Promise<Listening> {
      return channels.listen(
        keys.live(conversationId),
        (raw) => deliver(JSON.parse(raw) as PrivateNote),
        () =>
          void notes.list(conversationId).then(
            (all) => all.forEach(deliver),
            () => undefined,
          ),
      );
    },
  };
}

export type NoteFollower = ReturnType<typeof createNoteFollower>;

export function noteAsMessage(note: PrivateNote): NoteMessage {
  return {
    id: note.id,
    author: 'agent',
    text: note.text,
    createdAt: note.createdAt,
    aiGenerated: false,
    agent: { name: note.author.name },
    private: true,
    mentions: note.mentions,
  };
}

/** The transcript with the notes among its messages in time order, as agents read it (`interleave`). */
export function withNotes<Message extends { createdAt: string }>(
  messages: Message[],
  notes: PrivateNote[],
): Array<Message | NoteMessage> {
  return interleave(messages, notes.map(noteAsMessage));
}
