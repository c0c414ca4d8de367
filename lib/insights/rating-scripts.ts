/**
 * The Lua scripts that write a rating together with everything it counts, in one step: the rating
 * itself, the day counters it moves (`lib/insights/day-counters.ts`), and a closed conversation's
 * outcome between `resolved` and `abandoned`. Keys of days are built in the script from a base
 * (the day of a replaced rating and the close's day are only known there), which is fine on the
 * one Redis server this service uses.
 */
import type { RedisClient } from '#platform/redis.js';
import { runScript } from '#platform/redis-scripts.js';
import { keptDays, type Outcome, type Rating } from './day-counters.js';

/** Seconds from the start of a day until its counters expire, as `dayExpiry` computes. */
const keptSeconds = String((keptDays + 1) * 86_400);

// The epoch seconds of a `YYYY-MM-DD` (days from the civil date, proleptic Gregorian), and a
// day's counters moved by the given amounts, with the day's expiry.
const countHelpers = `
local function epochOf(day)
  local y, m, d = tonumber(string.sub(day, 1, 4)), tonumber(string.sub(day, 6, 7)), tonumber(string.sub(day, 9, 10))
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return (era * 146097 + doe - 719468) * 86400
end
local function count(dayBase, keptSeconds, day, changes)
  local key = dayBase .. day
  for _, change in ipairs(changes) do redis.call('HINCRBY', key, change[1], change[2]) end
  redis.call('EXPIREAT', key, epochOf(day) + tonumber(keptSeconds))
end
`;

// KEYS: the conversation record, its feedback hash.
// ARGV: message id, rating, the entry's JSON without its day, today, the day keys' base, kept
// seconds, the outcome without an answer rated down, the outcome with one (both `decideOutcome`'s).
// The day stays the first rating's; a replaced rating moves its count. A closed conversation that
// was resolved or abandoned (never handed off) takes the outcome its ratings now give, moved on its
// close's day.
const rateAnswerScript = `${countHelpers}
local channel = redis.call('HGET', KEYS[1], 'channel') or 'widget'
local rating = ARGV[2]
local day, previous = ARGV[4], ''
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  local decoded = cjson.decode(old)
  day, previous = decoded.day, decoded.rating
end
redis.call('HSET', KEYS[2], ARGV[1], '{"day":' .. cjson.encode(day) .. ',' .. string.sub(ARGV[3], 2))
local field = 'feedback:' .. channel .. ':'
if previous == '' then
  count(ARGV[5], ARGV[6], day, {{field .. rating, 1}})
elseif previous ~= rating then
  count(ARGV[5], ARGV[6], day, {{field .. previous, -1}, {field .. rating, 1}})
end
local record = redis.call('HMGET', KEYS[1], 'outcome', 'outcomeDay')
local outcome, outcomeDay, moved = record[1], record[2], ''
if (outcome == 'resolved' or outcome == 'abandoned') and outcomeDay then
  local down = false
  for _, value in ipairs(redis.call('HVALS', KEYS[2])) do
    if cjson.decode(value).rating == 'down' then down = true break end
  end
  local decided = ARGV[7]
  if down then decided = ARGV[8] end
  if decided ~= outcome then
    redis.call('HSET', KEYS[1], 'outcome', decided)
    local outcomeField = 'outcome:' .. channel .. ':'
    count(ARGV[5], ARGV[6], outcomeDay, {{outcomeField .. outcome, -1}, {outcomeField .. decided, 1}})
    moved = decided
  end
end
return {previous, day, moved}
`;

export interface AnswerRatingWrite {
  recordKey: string;
  feedbackKey: string;
  messageId: string;
  rating: Rating;
  /** The stored entry but its day: the script keeps the first rating's day. */
  entry: Record<string, unknown>;
  today: string;
  /** The operator's day counter key without the day (`…:day:`). */
  dayBase: string;
  /** The conversation's outcome as `decideOutcome` gives it without an answer rated down, and with one. */
  outcomes: { notRatedDown: Outcome; ratedDown: Outcome };
}

export interface AnswerRatingWritten {
  /** The rating it replaced, if any. */
  previous: Rating | undefined;
  /** The day it is counted on: the first rating's. */
  day: string;
  /** The outcome the conversation moved to, if it moved. */
  movedTo: 'resolved' | 'abandoned' | undefined;
}

export async function writeAnswerRating(redis: RedisClient, write: AnswerRatingWrite): Promise<AnswerRatingWritten> {
  const [previous, day, moved] = (await runScript(
    redis,
    rateAnswerScript,
    [write.recordKey, write.feedbackKey],
    [
      write.messageId,
      write.rating,
      JSON.stringify(write.entry),
      write.today,
      write.dayBase,
      keptSeconds,
      write.outcomes.notRatedDown,
      write.outcomes.ratedDown,
    ],
  )) as [string, string, string];
  return {
    previous: (previous || undefined) as Rating | undefined,
    day,
    movedTo: (moved || undefined) as AnswerRatingWritten['movedTo'],
  };
}

// KEYS: the conversation record, its satisfaction key.
// ARGV: score, rated at, today, the day keys' base, kept seconds.
// Only after an agent closed the conversation; the day stays the first score's.
const rateSatisfactionScript = `${countHelpers}
if redis.call('HGET', KEYS[1], 'closedBy') ~= 'agent' then return {'not_closed_by_agent'} end
local channel = redis.call('HGET', KEYS[1], 'channel') or 'widget'
local score = tonumber(ARGV[1])
local day, previous = ARGV[3], nil
local old = redis.call('GET', KEYS[2])
if old then
  local decoded = cjson.decode(old)
  day, previous = decoded.day, tonumber(decoded.score)
end
redis.call('SET', KEYS[2], cjson.encode({score = score, ratedAt = ARGV[2], day = day}))
local field = 'satisfaction:' .. channel .. ':'
if previous == nil then
  count(ARGV[4], ARGV[5], day, {{field .. score, 1}})
elseif previous ~= score then
  count(ARGV[4], ARGV[5], day, {{field .. previous, -1}, {field .. score, 1}})
end
return {'written', day}
`;

export interface SatisfactionWrite {
  recordKey: string;
  satisfactionKey: string;
  score: number;
  ratedAt: string;
  today: string;
  dayBase: string;
}

/** Writes the score and counts it, or says the conversation was not closed by an agent. */
export async function writeSatisfaction(
  redis: RedisClient,
  write: SatisfactionWrite,
): Promise<{ written: true; day: string } | { written: false }> {
  const [result, day] = (await runScript(
    redis,
    rateSatisfactionScript,
    [write.recordKey, write.satisfactionKey],
    [String(write.score), write.ratedAt, write.today, write.dayBase, keptSeconds],
  )) as [string, string?];
  return result === 'written' ? { written: true, day: day! } : { written: false };
}
