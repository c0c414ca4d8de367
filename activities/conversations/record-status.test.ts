import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createConversationRecords } from '#conversations/records.js';
import { createTranscript } from '#conversations/transcript.js';
import { createConversationCounts } from '#insights/conversation-counts.js';
import { useTestRedis } from '#testing/redis.js';
import type { ConversationRef } from '#workflows/conversations/types.js';
import { createConversationActivities } from './conversation-activities.js';

const store = useTestRedis(test);

function activities() {
  const redis = store.redis();
  const records = createConversationRecords(redis, store.prefix);
  const recording = createConversationActivities({
    records,
    transcript: createTranscript(redis, store.prefix),
    events: { publish: async () => undefined },
    answerQuestion: async () => {
      throw new Error('no question here');
    },
    answerBudget: { spend: async () => ({ allowed: true, retryAfterSeconds: 0 }) },
    counts: createConversationCounts(redis, store.prefix),
    channel: { windowOpenUntil: async () => undefined },
  });
  return { records, recording };
}

async function openConversation(records: ReturnType<typeof createConversationRecords>): Promise<ConversationRef> {
  const ref: ConversationRef = {
    conversationId: randomUUID(),
    tenantId: 't1',
    operatorId: 'op1',
    knowledgeBaseId: 'kb1',
    channel: 'widget',
    locale: 'en',
  };
  await records.create({ ...ref, visitorTokenHash: '', contact: {} });
  return ref;
}

test('closing keeps who closed the conversation: from the closing facts, else (older histories) from the closing notice', async (t) => {
  const { records, recording } = activities();
  const cases = [
    { notice: 'closedIdle', closedBy: undefined, expected: 'idle' },
    { notice: 'closedByAgent', closedBy: undefined, expected: 'agent' },
    { notice: 'closedByAgent', closedBy: 'visitor', expected: 'visitor' },
    { notice: 'closedIdle', closedBy: 'idle', expected: 'idle' },
  ] as const;
  for (const [index, { notice, closedBy, expected }] of cases.entries()) {
    const conversation = await openConversation(records);
    await recording.recordConversationStatus({
      conversation,
      status: 'waiting_for_agent',
      notice: null,
      agent: null,
      effectId: 1,
    });
    t.is((await records.get(conversation.conversationId))!.closedBy, undefined, 'open: nobody closed it');
    await recording.recordConversationStatus({
      conversation,
      status: 'closed',
      notice,
      agent: null,
      effectId: 2,
      ...(closedBy ? { closing: { closedBy, handoffBy: null, answered: false } } : {}),
    });
    t.is((await records.get(conversation.conversationId))!.closedBy, expected, `case ${index}`);
  }
});
