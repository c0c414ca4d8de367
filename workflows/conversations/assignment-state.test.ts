import test from 'ava';
import { Conversation } from './state.js';
import type { AssignmentStep, QueuedEffect } from './types.js';

const timers = { agentWaitNoticeMs: 60_000, idleTimeoutMs: 3_600_000 };
const ada = { agentId: 'ada', name: 'Ada' };
const bob = { agentId: 'bob', name: 'Bob' };
const lead = { agentId: 'lead', name: 'Lee' };

/** Carries out every queued effect: assignment steps are answered by `assign`; returns the steps and statuses in order. */
function drain(conversation: Conversation, assign: (step: AssignmentStep) => typeof ada | null = () => null, now = 0): string[] {
  const done: string[] = [];
  for (let effect: QueuedEffect | undefined = conversation.nextEffect(); effect; effect = conversation.nextEffect()) {
    if (effect.kind === 'assign') {
      const agent = assign(effect.step);
      conversation.noteAssignment({ teamId: 'team', agent, offerMs: 120_000 }, now);
      done.push(`assign:${effect.step.kind}`);
    } else done.push(effect.kind === 'status' ? `status:${effect.status}:${effect.agent?.name ?? ''}` : effect.kind);
    conversation.completeEffect();
  }
  return done;
}

test('a handoff of a conversation that assigns is routed right after its status, and one started before never is', (t) => {
  const assigning = Conversation.start(0, { assigning: true });
  assigning.requestHandoff('visitor', 5);
  t.deepEqual(
    drain(assigning, () => ada),
    ['status:waiting_for_agent:', 'assign:route'],
  );
  t.deepEqual(assigning.assignment, { teamId: 'team', agent: ada, offerMs: 120_000, at: 0 });

  const older = Conversation.start(0);
  older.requestHandoff('visitor', 5);
  t.deepEqual(drain(older), ['status:waiting_for_agent:']);
  t.is(older.assignment, undefined);
});

test('an agent who does not take the conversation up within the limit: it goes to the next, and the timer runs again', (t) => {
  const conversation = Conversation.start(0, { assigning: true });
  conversation.requestHandoff('visitor', 0);
  drain(conversation, () => ada, 1_000);
  // The wait notice (60 s) comes first, then the offer's end.
  t.is(conversation.nextDeadline(timers), 60_000);
  t.is(conversation.fireDueTimer(60_000, timers), 'agentWaitNotice');
  drain(conversation);
  t.is(conversation.nextDeadline(timers), 121_000);
  t.is(conversation.fireDueTimer(120_999, timers), null);
  t.is(conversation.fireDueTimer(121_000, timers), 'offerExpired');
  const steps: AssignmentStep[] = [];
  drain(conversation, (step) => (steps.push(step), bob), 121_000);
  t.deepEqual(steps, [{ kind: 'next', exclude: [], fallback: 'keep' }]);
  t.is(conversation.assignment?.agent?.name, 'Bob');
  t.is(conversation.nextDeadline(timers), 241_000);

  // Taken over: no offer runs out any more.
  conversation.takeOver(bob, 130_000);
  drain(conversation);
  t.is(conversation.nextDeadline(timers), 130_000 + timers.idleTimeoutMs);
  t.deepEqual(conversation.assignment?.agent, bob);
});

test('an offer is taken only by a waiting conversation nobody has, once', (t) => {
  const conversation = Conversation.start(0, { assigning: true });
  t.false(conversation.offer('ada'), 'the AI has it');
  conversation.requestHandoff('visitor', 0);
  drain(conversation, () => null);
  t.true(conversation.offer('ada'));
  t.false(conversation.offer('bob'), 'one offer at a time');
  const steps: AssignmentStep[] = [];
  drain(conversation, (step) => (steps.push(step), ada));
  t.deepEqual(steps, [{ kind: 'offer', agentId: 'ada' }]);
  t.false(conversation.offer('bob'), 'Ada has it now');
});

test('an agent who leaves passes the waiting conversations given to them on; not those of others', (t) => {
  const conversation = Conversation.start(0, { assigning: true });
  conversation.requestHandoff('visitor', 0);
  drain(conversation, () => ada);
  t.false(conversation.agentLeft('bob'));
  t.true(conversation.agentLeft('ada'));
  const steps: AssignmentStep[] = [];
  drain(conversation, (step) => (steps.push(step), null));
  t.deepEqual(steps, [{ kind: 'next', exclude: ['ada'], fallback: 'queue' }]);
  conversation.fireDueTimer(60_000, timers);
  drain(conversation);
  t.is(conversation.nextDeadline(timers), timers.idleTimeoutMs, 'nobody has it: no offer runs out');
});

test('assigning by hand: an AI conversation is handed off first; one being answered passes to the new agent', (t) => {
  const conversation = Conversation.start(0, { assigning: true });
  t.is(conversation.refuseAssign(null), null);
  conversation.assign(ada, undefined, lead, 10);
  t.is(conversation.status, 'waiting_for_agent');
  t.deepEqual(
    drain(conversation, (step) => (step.kind === 'manual' ? step.agent : null)),
    ['status:waiting_for_agent:', 'assign:manual'],
  );
  t.is(conversation.handoffBy, 'agent');

  conversation.takeOver(ada, 20);
  drain(conversation);
  t.regex(conversation.refuseAssign(null)!, /Ada is answering this conversation/);
  conversation.assign(bob, 'other-team', lead, 30);
  t.deepEqual(
    drain(conversation, (step) => (step.kind === 'manual' ? step.agent : null)),
    ['assign:manual', 'status:agent:Bob'],
  );
  t.is(conversation.refuseAgentReply('ada'), 'Take the conversation over before replying.');
  t.is(conversation.refuseAgentReply('bob'), null);

  conversation.handBack(40);
  drain(conversation);
  t.is(conversation.assignment?.agent, null, 'handed back: nobody has it');
  conversation.close('agent');
  drain(conversation);
  t.is(conversation.refuseAssign(ada), 'The conversation is closed.');
});

/** Carries out every queued effect; SLA steps start clocks due `targetMs` later, stop and drop them, and mark breaches. */
function drainWithSla(conversation: Conversation, targetMs = 60_000): string[] {
  const done: string[] = [];
  for (let effect = conversation.nextEffect(); effect; effect = conversation.nextEffect()) {
    if (effect.kind === 'assign') conversation.noteAssignment({ teamId: 'team', agent: ada, offerMs: null, sla: true }, 0);
    if (effect.kind === 'sla') {
      const { change } = effect;
      const clocks = { ...conversation.slaClocks };
      for (const metric of change.start ?? [])
        clocks[metric] = { dueAt: change.at + targetMs, cycle: change.at, breached: false };
      for (const metric of [...(change.stop ?? []), ...(change.drop ?? [])]) delete clocks[metric];
      if (change.breach) clocks[change.breach] = { ...clocks[change.breach]!, breached: true };
      conversation.noteSla(clocks);
      done.push(`sla:${JSON.stringify({ ...change, at: undefined })}`);
    } else done.push(effect.kind === 'status' ? `status:${effect.status}` : effect.kind);
    conversation.completeEffect();
  }
  return done;
}

test('service-level clocks: started by the team at the handoff, stopped by replies and the close, breached once', (t) => {
  const conversation = Conversation.start(0, { assigning: true });
  conversation.requestHandoff('visitor', 1_000);
  t.deepEqual(drainWithSla(conversation), ['status:waiting_for_agent', 'assign', 'sla:{"start":["firstResponse","resolution"]}']);
  t.is(conversation.nextDeadline(timers), 61_000, 'the clocks and the wait notice, all at 61 s');
  t.is(conversation.fireDueTimer(61_000, timers), 'agentWaitNotice', 'the wait notice first');
  drainWithSla(conversation);
  t.is(conversation.fireDueTimer(61_000, timers), 'slaBreached');
  t.deepEqual(drainWithSla(conversation), ['sla:{"breach":"firstResponse"}']);
  t.is(conversation.fireDueTimer(61_000, timers), 'slaBreached', 'the other clock, due at the same time');
  t.deepEqual(drainWithSla(conversation), ['sla:{"breach":"resolution"}']);
  t.is(conversation.fireDueTimer(61_001, timers), null, 'each breached once');

  conversation.takeOver(ada, 70_000);
  conversation.agentReply({ agentId: 'ada', messageId: 'r1', text: 'Hello' }, 71_000);
  t.deepEqual(drainWithSla(conversation).slice(-1), ['sla:{"stop":["firstResponse"]}']);
  conversation.receive({ messageId: 'm2', text: 'Thanks, and…' }, 72_000);
  t.deepEqual(drainWithSla(conversation), ['visitorMessage', 'sla:{"start":["nextResponse"]}']);
  conversation.receive({ messageId: 'm3', text: '…one more thing' }, 73_000);
  t.deepEqual(drainWithSla(conversation), ['visitorMessage'], 'the clock already runs from the first unanswered message');
  conversation.agentReply({ agentId: 'ada', messageId: 'r2', text: 'Sure' }, 80_000);
  t.deepEqual(drainWithSla(conversation).slice(-1), ['sla:{"stop":["nextResponse"]}']);

  conversation.close('agent', 90_000);
  t.deepEqual(drainWithSla(conversation), ['sla:{"stop":["resolution"],"drop":[]}', 'status:closed']);
});

test('no clocks for a team without targets, nor once the conversation is back with the AI', (t) => {
  const conversation = Conversation.start(0, { assigning: true });
  conversation.requestHandoff('visitor', 0);
  drainWithSla(conversation);
  conversation.handBack(5_000);
  t.deepEqual(drainWithSla(conversation), ['status:ai', 'sla:{"drop":["firstResponse","resolution"]}']);
  conversation.receive({ messageId: 'm1', text: 'hello' }, 6_000);
  t.deepEqual(drainWithSla(conversation), ['visitorMessage'], 'the AI answers: no clock');
});
