import test from 'ava';
import { retryWait } from '#workflows/outbound-events/retry-wait.js';
import { eventIdOf } from './event-types.js';
import { conversationStatusChanged, messageCreated } from './facts.js';

const ref = { conversationId: 'c-1', operatorId: 'o-1', knowledgeBaseId: 'kb-1', channel: 'widget' };

test('an event id derives from its fact alone: the same fact (a retried activity) has the same id', (t) => {
  t.regex(eventIdOf('message.created', 'c-1', 'm-1'), /^evt_[0-9a-f]{32}$/);
  t.is(
    messageCreated(ref, { id: 'm-1', author: 'visitor', text: 'Hi', createdAt: '2026-11-27T08:00:00.000Z' }).id,
    eventIdOf('message.created', 'c-1', 'm-1'),
  );
  const later = messageCreated(ref, { id: 'm-1', author: 'visitor', text: 'Hi', createdAt: '2026-11-27T08:00:05.000Z' });
  t.is(later.id, eventIdOf('message.created', 'c-1', 'm-1'), 'a retry writing a later time is still the same event');
  t.not(eventIdOf('message.created', 'c-1', 'm-2'), eventIdOf('message.created', 'c-1', 'm-1'));
  t.not(eventIdOf('conversation.closed', 'c-1', '3'), eventIdOf('conversation.handed_off', 'c-1', '3'));
});

test('status changes: a handoff, an agent assigned and a closing are events; a reminder or a hand-back is none', (t) => {
  const agent = { agentId: 'u-1', name: 'Linus' };
  const change = (status: string, extra: Partial<{ agent: typeof agent | null; reminder: boolean }> = {}) =>
    conversationStatusChanged(ref, { status, effectId: 4, agent: null, reminder: false, ...extra });
  t.is(change('waiting_for_agent')?.type, 'conversation.handed_off');
  t.is(change('waiting_for_agent', { reminder: true }), undefined);
  t.deepEqual(change('agent', { agent })?.data, { ...ref, status: 'agent', agent: { id: 'u-1', name: 'Linus' } });
  t.is(change('closed')?.type, 'conversation.closed');
  t.is(change('ai'), undefined);
  t.is(change('closed')?.id, eventIdOf('conversation.closed', 'c-1', '4'));
});

test('the wait between attempts: 1 s doubling to the cap, lengthened by at most a fifth', (t) => {
  const settings = { initialIntervalMs: 1_000, maxIntervalMs: 600_000, horizonMs: 86_400_000, idleMs: 600_000 };
  for (const [attempt, base] of [
    [1, 1_000],
    [2, 2_000],
    [5, 16_000],
    [10, 512_000],
    [11, 600_000],
    [200, 600_000],
  ] as const) {
    for (let i = 0; i < 20; i++) {
      const wait = retryWait(attempt, settings);
      t.true(wait >= base && wait <= base * 1.2, `attempt ${attempt}: ${wait}`);
    }
  }
});
