import test from 'ava';
import type { DeliveredEvent } from '#conversations/events.js';
import { followThenAct, type EventStream } from './server-sent-events.js';

/** A stream that keeps what it was sent, and whether it started before. */
function recordingStream() {
  const sent: Array<{ event: string; data: unknown; id?: string | null; started: boolean }> = [];
  const callbacks: Array<() => void> = [];
  let started = false;
  let ended = false;
  const stream: EventStream = {
    send(event, data, id) {
      if (!ended) sent.push({ event, data, ...(id === undefined ? {} : { id }), started });
    },
    start() {
      if (!ended) started = true;
    },
    end() {
      if (ended) return;
      ended = true;
      callbacks.splice(0).forEach((callback) => callback());
    },
    get ended() {
      return ended;
    },
    onEnd(callback) {
      if (ended) callback();
      else callbacks.push(callback);
    },
  };
  return { stream, sent, started: () => started };
}

/** A follower of one conversation whose events the test delivers by hand. */
function manualFollower() {
  let deliver: ((delivered: DeliveredEvent) => void) | undefined;
  const state = { stops: 0, after: '' };
  return {
    state,
    deliver: (delivered: DeliveredEvent) => deliver!(delivered),
    follower: {
      async follow(_conversationId: string, after: string, onEvent: (delivered: DeliveredEvent) => void) {
        state.after = after;
        deliver = onEvent;
        return { stop: async () => void state.stops++ };
      },
    },
  };
}

const status = (id: string): DeliveredEvent => ({ id, event: { type: 'status', status: 'agent', agentName: 'Ada' } });
const token = (delta: string): DeliveredEvent => ({ id: null, event: { type: 'token', replyTo: 'm1', delta } });
const done = (id: string): DeliveredEvent => ({ id, event: { type: 'done', replyTo: 'm1', message: null, status: 'ai' } });

test('events that come while the route acts are held, then sent after what it acts with, in order', async (t) => {
  const { stream, sent } = recordingStream();
  const { follower, deliver, state } = manualFollower();
  await followThenAct(
    stream,
    { follower, conversationId: 'c1', after: '1-0', picks: (event) => event.type === 'status', withIds: true },
    async () => {
      deliver(status('2-0'));
      deliver(token('left out'));
      deliver(status('3-0'));
      return [{ event: 'conversation', data: { id: 'c1' } }];
    },
  );
  deliver(status('4-0'));
  t.is(state.after, '1-0');
  t.deepEqual(sent, [
    { event: 'conversation', data: { id: 'c1' }, started: true },
    { event: 'status', data: { status: 'agent', agentName: 'Ada' }, id: '2-0', started: true },
    { event: 'status', data: { status: 'agent', agentName: 'Ada' }, id: '3-0', started: true },
    { event: 'status', data: { status: 'agent', agentName: 'Ada' }, id: '4-0', started: true },
  ]);
  t.false(stream.ended);
  stream.end();
  t.is(state.stops, 1, 'the following stops with the stream');
});

test('the event the stream ends with ends it, held or live, and ids are left out when asked', async (t) => {
  const picks = () => true;
  for (const whileActing of [true, false]) {
    const { stream, sent } = recordingStream();
    const { follower, deliver, state } = manualFollower();
    await followThenAct(
      stream,
      { follower, conversationId: 'c1', after: 'now', picks, withIds: false, endsWith: 'done' },
      async () => {
        deliver(token('Hi'));
        if (whileActing) deliver(done('5-0'));
        return [{ event: 'accepted', data: { messageId: 'm1' } }];
      },
    );
    if (!whileActing) deliver(done('5-0'));
    deliver(token('after the end'));
    t.deepEqual(
      sent.map(({ event, id }) => [event, id]),
      [
        ['accepted', undefined],
        ['token', undefined],
        ['done', undefined],
      ],
    );
    t.true(stream.ended);
    t.is(state.stops, 1);
  }
});

test('a route that fails to act stops the following and never starts the stream', async (t) => {
  const { stream, sent, started } = recordingStream();
  const { follower, deliver, state } = manualFollower();
  await t.throwsAsync(
    followThenAct(stream, { follower, conversationId: 'c1', after: 'now', picks: () => true, withIds: true }, async () => {
      deliver(status('2-0'));
      throw new Error('closed');
    }),
    { message: 'closed' },
  );
  t.is(state.stops, 1);
  t.false(started());
  t.deepEqual(sent, []);
});
