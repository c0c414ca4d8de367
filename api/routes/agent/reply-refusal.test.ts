import test from 'ava';
import { agentRefusal, replyRefusal } from './reply-refusal.js';

const now = new Date('2026-11-25T10:00:00.000Z');
const hoursFromNow = (hours: number) => new Date(now.getTime() + hours * 3600_000);

test('a widget conversation has no window: replies are never refused here', (t) => {
  t.is(replyRefusal({ channel: 'widget' }, undefined, now), null);
  t.is(replyRefusal({ channel: 'widget' }, hoursFromNow(-48), now), null);
});

test('messaging: a reply within the 24-hour window may be sent', (t) => {
  t.is(replyRefusal({ channel: 'messaging' }, hoursFromNow(23), now), null);
  t.is(replyRefusal({ channel: 'messaging' }, new Date(now.getTime() + 1), now), null);
});

test('messaging: a passed or unknown window refuses with 409 window_closed, naming the 24 hours and templates', (t) => {
  for (const until of [hoursFromNow(-1), now, undefined]) {
    const refusal = replyRefusal({ channel: 'messaging' }, until, now);
    t.truthy(refusal, String(until));
    t.is(refusal!.status, 409);
    t.is(refusal!.code, 'window_closed');
    t.regex(refusal!.message, /24 hours/);
    t.regex(refusal!.message, /approved template/);
  }
});

test("the agent check before a file is fetched: the workflow's rule, as the record reads", (t) => {
  t.is(agentRefusal({ status: 'agent', agentId: 'ada' }, 'ada'), null);
  for (const record of [
    { status: 'agent' as const, agentId: 'grace' },
    { status: 'waiting_for_agent' as const },
    { status: 'ai' as const },
  ]) {
    const refusal = agentRefusal(record, 'ada');
    t.is(refusal?.status, 409, record.status);
    t.is(refusal?.code, 'conflict');
    t.regex(refusal!.message, /Take the conversation over/);
  }
  t.is(agentRefusal({ status: 'closed' }, 'ada')?.code, 'conversation_closed');
  // A record written before agent ids were kept cannot tell: the workflow decides.
  t.is(agentRefusal({ status: 'agent' }, 'ada'), null);
});
