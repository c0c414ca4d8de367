import test from 'ava';
import { tearDown } from './teardown.js';

test('steps run in order, and a teardown of steps that all finish succeeds', async (t) => {
  const ran: string[] = [];
  await tearDown({
    browser: async () => void ran.push('browser'),
    worker: async () => void ran.push('worker'),
    api: async () => void ran.push('api'),
  });
  t.deepEqual(ran, ['browser', 'worker', 'api']);
});

test('a step that hangs is named once its limit passes, and the steps after it still run', async (t) => {
  const ran: string[] = [];
  const error = await t.throwsAsync(
    tearDown(
      {
        browser: () => new Promise(() => undefined),
        api: async () => void ran.push('api'),
      },
      50,
    ),
  );
  t.is(error?.message, 'teardown failed: browser: not closed within 50 ms');
  t.deepEqual(ran, ['api']);
});

test('every failing step is named with its own error', async (t) => {
  const error = await t.throwsAsync(
    tearDown({
      worker: async () => {
        throw new Error('connection refused');
      },
      files: async () => undefined,
      api: async () => {
        throw new Error('Redis is offline');
      },
    }),
  );
  t.is(error?.message, 'teardown failed: worker: connection refused; api: Redis is offline');
});
