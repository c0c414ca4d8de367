import test from 'ava';
import type { EventStream } from '#api/server-sent-events.js';
import { eventually, stillAfter } from '#testing/eventually.js';
import { sendInboxUpdates } from './inbox-stream.js';

/** An event stream that records what is sent and can be ended like a leaving client. */
function recordingStream() {
  const sent: Array<{ event: string; data: any }> = [];
  const callbacks: Array<() => void> = [];
  let ended = false;
  const stream: EventStream = {
    send: (event, data) => void (ended || sent.push({ event, data })),
    start: () => undefined,
    end() {
      ended = true;
      callbacks.splice(0).forEach((callback) => callback());
    },
    get ended() {
      return ended;
    },
    onEnd: (callback) => void (ended ? callback() : callbacks.push(callback)),
  };
  return { stream, sent };
}

test('sends the list at once, then only when it changed, and stops reading when the stream ends', async (t) => {
  const { stream, sent } = recordingStream();
  const lists = [['a'], ['a'], ['a', 'b'], ['a', 'b']];
  let reads = 0;
  sendInboxUpdates(stream, async () => lists[Math.min(reads++, lists.length - 1)], { intervalMs: 20 });
  await eventually(
    async () => reads,
    (count) => count > lists.length,
  );
  t.deepEqual(
    sent.map((event) => event.data.conversations),
    [['a'], ['a', 'b']],
  );
  t.true(sent.every((event) => event.event === 'inbox'));
  stream.end();
  const readsAtEnd = reads;
  await stillAfter(
    async () => reads,
    (count) => count === readsAtEnd,
    { forMs: 100, intervalMs: 10 },
  );
  t.is(reads, readsAtEnd, 'no reads after the end');
});

test('a failed read is reported and the next one still comes', async (t) => {
  const { stream, sent } = recordingStream();
  const errors: unknown[] = [];
  let reads = 0;
  sendInboxUpdates(
    stream,
    async () => {
      if (reads++ === 0) throw new Error('redis is down');
      return ['a'];
    },
    { intervalMs: 20, onError: (error) => errors.push(error) },
  );
  await eventually(
    async () => sent.length,
    (count) => count > 0,
  );
  stream.end();
  t.is(errors.length, 1);
  t.deepEqual(sent[0]?.data, { conversations: ['a'] });
});
