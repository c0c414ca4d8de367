import type { Citation } from '#answering/types.js';
import { conversationKeys } from '#conversations/redis-keys.js';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { ClosingFacts, ConversationRef } from '#workflows/conversations/types.js';
import { counterFields, dayExpiry, dayOf, insightKeys, type Outcome } from './day-counters.js';
import { decideOutcome } from './outcome.js';

/**
 * A conversation's part in its operator's day counters (`day-counters.ts`): each fact counted once
 * per conversation, however often the activity that reports it runs. Every count is one Lua script
 * with its guard, a field of the conversation's `…:counted` hash (or, for the outcome, the record's
 * `outcome` field, as docs/insights.md says), so a retry after a lost answer counts nothing twice
 * and a crash half-way counts nothing at all.
 */

/** A source cited by an answer: `{knowledgeBaseId}/{externalId}` and its title. */
export interface CitedSource {
  key: string;
  title: string;
}

/** The sources an answer cited, once each: `{knowledgeBaseId}/{externalId}` and the title. */
export function citedSources(ref: Pick<ConversationRef, 'knowledgeBaseId'>, citations: Citation[]): CitedSource[] {
  const sources = new Map<string, string>();
  for (const citation of citations) sources.set(`${ref.knowledgeBaseId}/${citation.externalId}`, citation.title);
  return [...sources].map(([key, title]) => ({ key, title }));
}

/** What closing decided, as the first close counted it (a retry reads the same). */
export interface ClosedConversation {
  outcome: Outcome;
  /** True for the call that counted it. */
  counted: boolean;
  /** The ask the close decided to send the customer (`''`: none); decided once, with the outcome. */
  ask: string;
}

export function createConversationCounts(redis: Pick<RedisClient, 'eval'>, prefix: string, now: () => Date = () => new Date()) {
  const keys = conversationKeys(prefix);
  const insights = insightKeys(prefix);

  async function countOnce(
    ref: ConversationRef,
    guard: string,
    fields: string[],
    citations: CitedSource[] = [],
  ): Promise<boolean> {
    const day = dayOf(now());
    const counted = await redis.eval(countOnceScript, {
      keys: [keys.counted(ref.conversationId), insights.day(ref, day), insights.daySources(ref, day), insights.sourceTitles(ref)],
      arguments: [guard, String(dayExpiry(day)), JSON.stringify(fields), JSON.stringify(citations)],
    });
    return counted === 1;
  }

  return tagUnavailable('redis', {
    /** `started:{ch}`. */
    started: (ref: ConversationRef) => countOnce(ref, 'started', [counterFields.started(ref.channel)]),

    /** `answers:{ch}:{outcome}` for the answer `replyId`, and the sources it cited. */
    answered: (ref: ConversationRef, replyId: string, outcome: 'answered' | 'unknown', citations: CitedSource[]) =>
      countOnce(ref, `answer:${replyId}`, [counterFields.answers(ref.channel, outcome)], citations),

    /** `first_reply:{ch}:b{k}`: the agent's first reply came `seconds` after the handoff. */
    firstReply: (ref: ConversationRef, seconds: number) =>
      countOnce(ref, 'first_reply', [counterFields.firstReply(ref.channel, seconds)]),

    /**
     * The conversation closed: decides its outcome (an answer rated `down` in its feedback hash,
     * read in the same script, makes a `resolved` one `abandoned`), writes `closedBy`, `outcome`,
     * `outcomeDay` and `handoffBy` to its record and counts `closed`, `outcome` and `handoff` once.
     * `ask`: what to ask the customer when no answer is rated yet (`unrated`) or one is (`rated`).
     */
    async closed(
      ref: ConversationRef,
      closing: ClosingFacts,
      ask: { unrated: string; rated: string } = { unrated: '', rated: '' },
    ): Promise<ClosedConversation> {
      const day = dayOf(now());
      const ifRatedDown = decideOutcome({ ...closing, ratedDown: true });
      const otherwise = decideOutcome({ ...closing, ratedDown: false });
      const [counted, outcome, asked] = (await redis.eval(closeScript, {
        keys: [
          keys.record(ref.conversationId),
          keys.feedback(ref.conversationId),
          insights.day(ref, day),
          keys.counted(ref.conversationId),
        ],
        arguments: [
          otherwise,
          ifRatedDown,
          day,
          closing.handoffBy ?? '',
          closing.closedBy,
          String(dayExpiry(day)),
          counterFields.closed(ref.channel),
          counterFields.outcome(ref.channel, otherwise),
          counterFields.outcome(ref.channel, ifRatedDown),
          closing.handoffBy ? counterFields.handoff(ref.channel, closing.handoffBy) : '',
          ask.unrated,
          ask.rated,
        ],
      })) as [number, string, string];
      return { counted: counted === 1, outcome: outcome as Outcome, ask: asked };
    },
  });
}

export type ConversationCounts = ReturnType<typeof createConversationCounts>;

/**
 * KEYS: the conversation's guard hash, the day's counters, the day's cited sources (sorted set), the
 * source titles. ARGV: the guard field, the day's expiry, the fields to add 1 to (JSON), the cited sources
 * (JSON `{key, title}[]`). Answers 1 when it counted, 0 when the guard was taken already.
 */
const countOnceScript = `
if redis.call('HSETNX', KEYS[1], ARGV[1], '1') == 0 then return 0 end
for _, field in ipairs(cjson.decode(ARGV[3])) do redis.call('HINCRBY', KEYS[2], field, 1) end
redis.call('EXPIREAT', KEYS[2], ARGV[2])
local sources = cjson.decode(ARGV[4])
if #sources > 0 then
  for _, source in ipairs(sources) do
    redis.call('ZINCRBY', KEYS[3], 1, source.key)
    redis.call('HSET', KEYS[4], source.key, source.title)
  end
  redis.call('EXPIREAT', KEYS[3], ARGV[2])
  redis.call('EXPIREAT', KEYS[4], ARGV[2])
end
return 1`;

/**
 * KEYS: the record, its feedback hash, the day's counters, the guard hash. ARGV: the outcome
 * unless an answer is rated down, the outcome if one is, the day, handoffBy ('' none), closedBy,
 * the day's expiry, the fields closed / outcome (not down) / outcome (down) / handoff ('' none),
 * the ask when nothing is rated, the ask when something is. The outcome is the record's `outcome`,
 * set once (HSETNX): only the call that sets it counts. Answers {counted, outcome, ask}.
 */
const closeScript = `
redis.call('HSET', KEYS[1], 'closedBy', ARGV[5])
local ratings = redis.call('HVALS', KEYS[2])
local down = false
for _, value in ipairs(ratings) do
  local ok, rating = pcall(cjson.decode, value)
  if ok and type(rating) == 'table' and rating.rating == 'down' then down = true end
end
local ask = ARGV[11]
if #ratings > 0 then ask = ARGV[12] end
redis.call('HSETNX', KEYS[4], 'ask', ask)
local outcome = ARGV[1]
local outcomeField = ARGV[8]
if down then outcome = ARGV[2] outcomeField = ARGV[9] end
if redis.call('HSETNX', KEYS[1], 'outcome', outcome) == 0 then
  return {0, redis.call('HGET', KEYS[1], 'outcome'), redis.call('HGET', KEYS[4], 'ask')}
end
redis.call('HSET', KEYS[1], 'outcomeDay', ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'handoffBy', ARGV[4]) end
redis.call('HINCRBY', KEYS[3], ARGV[7], 1)
redis.call('HINCRBY', KEYS[3], outcomeField, 1)
if ARGV[10] ~= '' then redis.call('HINCRBY', KEYS[3], ARGV[10], 1) end
redis.call('EXPIREAT', KEYS[3], ARGV[6])
return {1, outcome, redis.call('HGET', KEYS[4], 'ask')}`;
