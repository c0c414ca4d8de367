import test from 'ava';
import { createConversationRecords } from '#conversations/records.js';
import { createTranscript } from '#conversations/transcript.js';
import { createConversationClient } from '#conversations/workflow-client.js';
import { createTemporalClient } from '#platform/temporal.js';
import { testActionWait } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startFakeChatServer, type FakeChatServer } from '#testing/fake-chat-server.js';
import { startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { shopItems } from '#testing/shop-content.js';
import { conversationStateQuery } from '#workflows/conversations/messages.js';
import { conversationWorkflowId } from '#workflows/ids.js';

/*
 * A customer's message that arrives while their conversation closes, on the real API, worker,
 * Temporal and Redis: the workflow has closed, its record still reads open (the status is written
 * after the answer in progress). The answer is held at a fake chat model to keep that window open.
 */

let stack: IngestionStack;
let platform: FakeMessagingPlatform;
let model: FakeChatServer;
let temporal: ReturnType<typeof createTemporalClient>;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  model = await startFakeChatServer({ apiKey: 'sk-test' });
  stack = await startIngestionStack({
    GRAPH_API_BASE_URL: platform.url,
    ANSWERS_PROVIDER: 'openai',
    ANSWERS_BASE_URL: model.baseUrl,
    ANSWERS_API_KEY: 'sk-test',
  });
  temporal = createTemporalClient(stack.api.config.temporal);
});
test.after.always(async () => {
  await temporal?.close();
  await stack?.close();
  await model?.close();
  await platform?.close();
});

test('a message arriving while the conversation closes goes to a new conversation, never dropped', async (t) => {
  const prefix = stack.api.config.redis.prefix;
  const records = createConversationRecords(stack.api.redis, prefix);
  const transcript = createTranscript(stack.api.redis, prefix);
  const agents = createConversationClient(temporal.client, stack.api.config.temporal.taskQueue, testActionWait);
  const connected = await messagingTenant(stack.api, platform, [shopItems.returns]);

  const release = model.holdMidStreamNext();
  await connected.send(connected.text('How many days do I have to return an item?'));
  const first = (await eventually(
    () => connected.conversationId(),
    (id) => id !== undefined,
  ))!;
  await eventually(
    async () => model.calls.length,
    (calls) => calls > 0,
  );
  const record = (await records.get(first))!;
  // The agent closes it while the answer is held: the close waits behind it, the record reads open.
  const closing = agents.close(record, 'agent');
  const handle = temporal.client.workflow.getHandle(conversationWorkflowId(record.tenantId, first));
  t.is(
    (
      await eventually(
        () => handle.query(conversationStateQuery),
        (state) => state.status === 'closed',
      )
    ).status,
    'closed',
  );
  t.not((await records.get(first))?.status, 'closed', 'the record still reads open');

  const late = await connected.send(connected.text('Are you still there?'));
  t.is(late.status, 200);
  t.like(JSON.parse(late.body), { received: { messages: 1 } });
  release();
  t.is(await closing, 'closed');

  const next = await eventually(
    () => connected.conversationId(),
    (id) => id !== first,
  );
  t.not(next, first, 'the late message started the next conversation');
  const texts = await eventually(
    async () => (await transcript.read(next!)).filter((m) => m.author === 'visitor').map((m) => m.text),
    (visitor) => visitor.length > 0,
  );
  t.deepEqual(texts, ['Are you still there?']);
  t.false(
    (await transcript.read(first)).some((m) => m.text === 'Are you still there?'),
    'not left in the closed conversation',
  );
  t.like(await records.get(next!), { status: 'ai', messaging: { customer: connected.customer } });
});
