import test from 'ava';
import { Conversation } from './state.js';

const timers = { agentWaitNoticeMs: 60_000, idleTimeoutMs: 600_000 };
const agent = { agentId: 'a1', name: 'Ada' };
const message = (messageId: string) => ({ messageId, text: `text of ${messageId}` });

/** Carries out every queued effect, returning their kinds (and statuses) in order. */
function drain(conversation: Conversation): string[] {
  const done: string[] = [];
  for (let effect = conversation.nextEffect(); effect; effect = conversation.nextEffect()) {
    done.push(effect.kind === 'status' ? `status:${effect.status}:${effect.notice}` : effect.kind);
    conversation.completeEffect();
  }
  return done;
}

test('a message is taken in once, however often it is delivered', (t) => {
  const conversation = Conversation.start(0);
  t.true(conversation.receive(message('m1'), 1));
  t.false(conversation.receive(message('m1'), 2));
  t.true(conversation.receive(message('m2'), 3));
  t.deepEqual(drain(conversation), ['visitorMessage', 'visitorMessage']);
});

test('a handoff moves only an AI conversation to waiting_for_agent, with a notice', (t) => {
  const conversation = Conversation.start(0);
  t.true(conversation.requestHandoff('visitor', 5));
  t.is(conversation.status, 'waiting_for_agent');
  t.false(conversation.requestHandoff('visitor', 6));
  t.deepEqual(drain(conversation), ['status:waiting_for_agent:handoffStarted']);
});

test('a handoff found while answering goes right after that message, without a second notice', (t) => {
  const conversation = Conversation.start(0);
  conversation.receive(message('m1'), 1);
  conversation.receive(message('m2'), 2);
  t.true(conversation.requestHandoff('visitor', 3, { first: true, announced: true }));
  t.deepEqual(drain(conversation), ['visitorMessage', 'status:waiting_for_agent:null', 'visitorMessage']);
});

test('an agent takes over, replies, and hands back; another agent is refused meanwhile', (t) => {
  const conversation = Conversation.start(0);
  conversation.requestHandoff('visitor', 1);
  t.is(conversation.refuseAgentReply('a1'), 'Take the conversation over before replying.');
  t.is(conversation.refuseTakeOver(agent), null);
  const takeOver = conversation.takeOver(agent, 2);
  t.is(conversation.status, 'agent');
  t.regex(conversation.refuseTakeOver({ agentId: 'a2', name: 'Bob' }) ?? '', /Ada has already taken/);
  t.is(conversation.refuseTakeOver(agent), null, 'the same agent taking over again is fine');
  t.is(conversation.refuseAgentReply('a2'), 'Take the conversation over before replying.');
  t.is(conversation.refuseAgentReply('a1'), null);
  const reply = conversation.agentReply({ agentId: 'a1', messageId: 'r1', text: 'Hello' }, 3);
  t.regex(conversation.refuseHandBack('a2') ?? '', /Only the agent/);
  const handBack = conversation.handBack(4);
  t.is(conversation.status, 'ai');
  t.is(conversation.refuseHandBack('a1'), 'The AI already has this conversation.');

  t.false(conversation.isDone(takeOver));
  t.deepEqual(drain(conversation), [
    'status:waiting_for_agent:handoffStarted',
    'status:agent:agentJoined',
    'agentMessage',
    'status:ai:handedBackToAi',
  ]);
  t.true(conversation.isDone(takeOver) && conversation.isDone(reply) && conversation.isDone(handBack));
});

test('an agent may take over straight from the AI', (t) => {
  const conversation = Conversation.start(0);
  t.is(conversation.refuseTakeOver(agent), null);
  conversation.takeOver(agent, 1);
  t.is(conversation.status, 'agent');
});

test('a closed conversation refuses everything and drops messages', (t) => {
  const conversation = Conversation.start(0);
  t.is(conversation.refuseClose(), null);
  conversation.close('agent');
  t.true(conversation.closed);
  t.is(conversation.refuseClose(), 'The conversation is already closed.');
  t.is(conversation.refuseTakeOver(agent), 'The conversation is closed.');
  t.is(conversation.refuseHandBack('a1'), 'The conversation is closed.');
  t.false(conversation.receive(message('late'), 5));
  t.false(conversation.requestHandoff('visitor', 5));
  t.is(conversation.nextDeadline(timers), null);
  t.deepEqual(drain(conversation), ['status:closed:closedByAgent']);
});

test('the idle timer runs from the last message and closes the conversation', (t) => {
  const conversation = Conversation.start(0);
  conversation.receive(message('m1'), 1_000);
  drain(conversation);
  t.is(conversation.nextDeadline(timers), 601_000);
  t.is(conversation.fireDueTimer(600_999, timers), null);
  t.is(conversation.fireDueTimer(601_000, timers), 'idle');
  t.true(conversation.closed);
  t.deepEqual(drain(conversation), ['status:closed:closedIdle']);
});

test('a customer waiting for an agent is told once, then the idle timer still applies', (t) => {
  const conversation = Conversation.start(0);
  conversation.requestHandoff('visitor', 10_000);
  drain(conversation);
  t.is(conversation.nextDeadline(timers), 70_000);
  t.is(conversation.fireDueTimer(70_000, timers), 'agentWaitNotice');
  t.deepEqual(drain(conversation), ['status:waiting_for_agent:stillWaitingForAgent']);
  t.is(conversation.nextDeadline(timers), 600_000, 'the notice is not repeated');
  t.is(conversation.fireDueTimer(600_000, timers), 'idle');
});

test('an agent taking over stops the wait notice', (t) => {
  const conversation = Conversation.start(0);
  conversation.requestHandoff('visitor', 0);
  conversation.takeOver(agent, 1_000);
  drain(conversation);
  t.is(conversation.nextDeadline(timers), 601_000);
  t.is(conversation.fireDueTimer(70_000, timers), null);
});

test('timers wait while work is queued', (t) => {
  const conversation = Conversation.start(0);
  conversation.receive(message('m1'), 0);
  t.is(conversation.fireDueTimer(10_000_000, timers), null);
});

test('a snapshot restores the same conversation', (t) => {
  const conversation = Conversation.start(0);
  conversation.receive(message('m1'), 1);
  conversation.requestHandoff('visitor', 2);
  const restored = new Conversation(conversation.snapshot());
  t.is(restored.status, 'waiting_for_agent');
  t.false(restored.receive(message('m1'), 3), 'seen ids survive');
  t.deepEqual(drain(restored), ['visitorMessage', 'status:waiting_for_agent:handoffStarted']);
});

test('the AI hands the customer to a person after finding nothing twice in a row; an answer starts the count over', (t) => {
  const conversation = Conversation.start(0);
  t.false(conversation.noteAnswer('unknown', 1));
  t.false(conversation.noteAnswer('answered', 2));
  t.false(conversation.noteAnswer('unknown', 3));
  t.is(conversation.status, 'ai');
  t.true(conversation.noteAnswer('unknown', 4));
  t.is(conversation.status, 'waiting_for_agent');
  t.deepEqual(drain(conversation), ['status:waiting_for_agent:handoffStarted']);
  t.false(conversation.noteAnswer('unknown', 5), 'already with the people');
});

test('a window closed at the platform hands an AI conversation to a person, silently; any other status stays', (t) => {
  const withAi = Conversation.start(0);
  t.true(withAi.windowClosed(5));
  t.is(withAi.status, 'waiting_for_agent');
  t.deepEqual(drain(withAi), ['status:waiting_for_agent:null'], 'no notice the platform would refuse too');
  t.false(withAi.windowClosed(6), 'already waiting');

  const withAgent = Conversation.start(0);
  withAgent.takeOver(agent, 1);
  drain(withAgent);
  t.false(withAgent.windowClosed(2));
  t.is(withAgent.status, 'agent');
  t.deepEqual(drain(withAgent), []);

  const closed = Conversation.start(0);
  closed.close('agent');
  drain(closed);
  t.false(closed.windowClosed(2));
  t.is(closed.status, 'closed');
});

/** The closing facts the close effect carries to the status activity. */
function closingOf(conversation: Conversation) {
  const effects = [];
  for (let effect = conversation.nextEffect(); effect; effect = conversation.nextEffect()) {
    effects.push(effect);
    conversation.completeEffect();
  }
  const close = effects.find((effect) => effect.kind === 'status' && effect.status === 'closed');
  return close?.kind === 'status' ? close.closing : undefined;
}

test('closing carries who closed, who handed off first, and whether a question was answered', (t) => {
  const quiet = Conversation.start(0);
  quiet.close('idle');
  t.deepEqual(closingOf(quiet), { closedBy: 'idle', handoffBy: null, answered: false });

  const answered = Conversation.start(0);
  t.false(answered.noteAnswer('unknown', 1));
  t.false(answered.noteAnswer('answered', 2));
  answered.close('idle');
  t.deepEqual(closingOf(answered), { closedBy: 'idle', handoffBy: null, answered: true });
});

test('a close asked for while an answer is still being written decides on the facts as they are when it is carried out', (t) => {
  const conversation = Conversation.start(0);
  conversation.receive({ messageId: 'm1', text: 'How long do returns take?' }, 1);
  conversation.close('agent');
  // The workflow answers the message first (effects run in order), then carries out the close.
  t.is(conversation.nextEffect()?.kind, 'visitorMessage');
  t.false(conversation.noteAnswer('answered', 2));
  conversation.completeEffect();
  const close = conversation.nextEffect();
  t.like(close, { kind: 'status', status: 'closed', closing: { answered: false } }, 'as queued');
  t.deepEqual(conversation.closingFacts('agent'), { closedBy: 'agent', handoffBy: null, answered: true }, 'as carried out');
});

test('the first handoff is the one kept: the visitor asking, then an agent, stays the visitor', (t) => {
  const conversation = Conversation.start(0);
  t.true(conversation.requestHandoff('visitor', 10));
  conversation.takeOver(agent, 20);
  conversation.handBack(30);
  conversation.takeOver({ agentId: 'a2', name: 'Bo' }, 40);
  conversation.close('agent');
  t.deepEqual(closingOf(conversation), { closedBy: 'agent', handoffBy: 'visitor', answered: false });
  t.like(conversation.snapshot(), { handoffBy: 'visitor', handedOffAt: 10 });
});

test('two unknowns in a row, the closed window and the answer budget are handoffs by the AI', (t) => {
  const unknowns = Conversation.start(0);
  unknowns.noteAnswer('unknown', 1);
  t.true(unknowns.noteAnswer('unknown', 2));
  t.like(unknowns.snapshot(), { handoffBy: 'ai', handedOffAt: 2 });

  const window = Conversation.start(0);
  t.true(window.windowClosed(7));
  t.like(window.snapshot(), { handoffBy: 'ai', handedOffAt: 7 });

  const budget = Conversation.start(0);
  t.true(budget.requestHandoff('ai', 9, { first: true, announced: true }));
  t.like(budget.snapshot(), { handoffBy: 'ai' });
});

test('an agent taking over an AI conversation unasked hands it off; taking over a waiting one does not', (t) => {
  const unasked = Conversation.start(0);
  unasked.takeOver(agent, 50);
  t.like(unasked.snapshot(), { handoffBy: 'agent', handedOffAt: 50 });

  const asked = Conversation.start(0);
  asked.requestHandoff('visitor', 5);
  asked.takeOver(agent, 50);
  t.like(asked.snapshot(), { handoffBy: 'visitor', handedOffAt: 5 });
});

test("only the agent's first reply since the handoff carries the handoff's moment", (t) => {
  const conversation = Conversation.start(0);
  conversation.requestHandoff('visitor', 1_000);
  conversation.takeOver(agent, 2_000);
  conversation.agentReply({ agentId: agent.agentId, messageId: 'r1', text: 'Hi' }, 31_000);
  conversation.agentReply({ agentId: agent.agentId, messageId: 'r2', text: 'Still there?' }, 40_000);
  const replies = [];
  for (let effect = conversation.nextEffect(); effect; effect = conversation.nextEffect()) {
    if (effect.kind === 'agentMessage') replies.push(effect.handedOffAt);
    conversation.completeEffect();
  }
  t.deepEqual(replies, [1_000, undefined]);
});

test('an older snapshot without the new fields closes as unanswered and never handed off', (t) => {
  const conversation = Conversation.start(0);
  const { handoffBy: _h, handedOffAt: _a, agentReplied: _r, answered: _n, ...older } = conversation.snapshot();
  const restored = new Conversation(older);
  restored.close('idle');
  t.deepEqual(closingOf(restored), { closedBy: 'idle', handoffBy: null, answered: false });
});
