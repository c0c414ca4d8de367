import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createChannelState } from '#messaging/channel-state.js';
import { createEventPublisher } from './events.js';
import { useTestRedis } from '#testing/redis.js';
import { createInbox, scannedConversations } from './inbox.js';
import { createConversationRecords } from './records.js';

const testRedis = useTestRedis(test);

function stores() {
  const redis = testRedis.redis();
  const records = createConversationRecords(redis, testRedis.prefix);
  const channel = createChannelState(redis, testRedis.prefix, createEventPublisher(redis, testRedis.prefix));
  return { records, inbox: createInbox({ redis, prefix: testRedis.prefix, records, channel }) };
}

const widgetConversation = (tenantId: string) => ({
  conversationId: randomUUID(),
  tenantId,
  operatorId: 'op',
  knowledgeBaseId: 'kb',
  channel: 'widget' as const,
  locale: 'en' as const,
  visitorTokenHash: 'hash',
  contact: {},
});

test('a customer waiting for a person stays in the inbox however many conversations were started since', async (t) => {
  const { records, inbox } = stores();
  const tenantId = randomUUID();
  const waiting = await records.create(widgetConversation(tenantId));
  await records.setStatus(waiting, 'waiting_for_agent', null);
  const taken = await records.create(widgetConversation(tenantId));
  await records.setStatus(taken, 'agent', 'Ada');

  // A flood of newer conversations, more than the inbox reads of the newest.
  const flood = Array.from({ length: scannedConversations }, () => widgetConversation(tenantId));
  for (let i = 0; i < flood.length; i += 100) await Promise.all(flood.slice(i, i + 100).map((c) => records.create(c)));

  const listed = await inbox.list(tenantId, { limit: 50 });
  t.deepEqual(listed.map((c) => c.conversationId).sort(), [waiting.conversationId, taken.conversationId].sort());
  t.deepEqual(
    (await inbox.list(tenantId, { status: 'waiting_for_agent', limit: 50 })).map((c) => c.conversationId),
    [waiting.conversationId],
  );

  // Back with the AI, or closed: no longer one that needs a person.
  await records.setStatus(waiting, 'ai', null);
  await records.setStatus(taken, 'closed', null);
  t.deepEqual(await inbox.list(tenantId, { limit: 50 }), []);
});
