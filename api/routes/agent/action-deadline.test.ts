import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createUser } from '#testing/api.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '#api/schemas/common.js';
import { withTimeout } from '#platform/time-limit.js';

// Agents' actions with no worker to apply them (finding F15): each answers within WORKFLOW_WAIT_SECONDS
// rather than hanging, and sent again with the same key once the worker is back, it happened once.
let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000', WORKFLOW_WAIT_SECONDS: '2' });
});
test.after.always(() => stack?.close());

/** A request that gives up long after the deadline: before the fix an action hung until then. */
const post = (path: string, headers: Record<string, string>, body?: unknown) =>
  withTimeout(stack.api.request('POST', path, { headers, body }), 30_000, `POST ${path} answered nothing`);

async function waitingConversation() {
  const { chat, tenant } = await chattingTenant(stack.api);
  const ada = await createUser(stack.api, tenant.id, 'agent');
  const visitor = await chat.start();
  const handoff = await stack.api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
    headers: visitor.headers,
  });
  if (handoff.status !== 202) throw new Error(`handoff answered ${handoff.status}`);
  const path = `/agent/conversations/${visitor.conversationId}`;
  const read = () => stack.api.request('GET', path, { headers: ada.headers });
  await eventually(read, (response) => response.body?.status === 'waiting_for_agent');
  return { ada, path, read };
}

test.serial(
  'with the worker stopped, take-over and reply answer 503 action_not_confirmed; retried, each happens once',
  async (t) => {
    const { ada, path, read } = await waitingConversation();
    await stack.stopWorker();
    try {
      const headers = { ...ada.headers, 'idempotency-key': `take-${randomUUID()}` };
      for (const attempt of [1, 2]) {
        const response = await post(`${path}/take-over`, headers);
        t.is(response.status, 503, `attempt ${attempt}`);
        assertMatchesSchema(t, errorBody, response.body);
        t.is(response.body.error.code, 'action_not_confirmed');
        t.is(response.headers.get('retry-after'), '5');
        t.is(response.body.error.details[0].idempotencyKey, headers['idempotency-key']);
      }
      const unkeyed = await post(`${path}/take-over`, ada.headers);
      t.is(unkeyed.status, 503);
      t.regex(unkeyed.body.error.details[0].idempotencyKey, /^[0-9a-f-]{36}$/, 'a key to retry with is handed out');
      t.is((await read()).body.status, 'waiting_for_agent');

      await stack.startWorker();
      const taken = await eventually(
        () => post(`${path}/take-over`, headers),
        (response) => response.status === 200,
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      t.deepEqual(taken.body, { status: 'agent' });

      await stack.stopWorker();
      const messageId = randomUUID();
      for (const attempt of [1, 2]) {
        const response = await post(`${path}/messages`, ada.headers, { text: 'Hello, Ada here.', messageId });
        t.is(response.status, 503, `reply attempt ${attempt}`);
        t.is(response.body.error.code, 'action_not_confirmed');
        t.is(response.body.error.details[0].messageId, messageId);
      }
      await stack.startWorker();
      const sent = await eventually(
        () => post(`${path}/messages`, ada.headers, { text: 'Hello, Ada here.', messageId }),
        (response) => response.status === 202,
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      t.deepEqual(sent.body, { messageId });
    } finally {
      await stack.startWorker();
    }
    const replied = await eventually(
      read,
      (response) => response.body.messages.some((message: { author: string }) => message.author === 'agent'),
      { timeoutMs: 60_000 },
    );
    const authors = replied.body.messages.map((message: { author: string }) => message.author);
    t.is(authors.filter((author: string) => author === 'agent').length, 1, 'the reply sent three times went out once');
    t.is(
      replied.body.messages.filter(
        (message: { author: string; text: string }) => message.author === 'system' && /Ada/.test(message.text),
      ).length,
      1,
      'the take-over sent three times was applied once',
    );
  },
);
