import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createConversationRecords } from '#conversations/records.js';
import { createConversationClient, ConversationActionRefusedError } from '#conversations/workflow-client.js';
import { generateSecret, hashSecret } from '#tenancy/secrets.js';
import { conversationWorkflowId } from '#workflows/ids.js';
import {
  chattyVisitors,
  chatClient,
  conversationAboutReturns,
  readEventStream,
  testActionWait,
  type ChatVisitor,
} from '#testing/chat.js';
import { startFakeChatServer } from '#testing/fake-chat-server.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, type IngestionStack, useStackWithTemporal } from '#testing/ingestion.js';

const bed = useStackWithTemporal(test, () => chattyVisitors);

const agent = { agentId: 'agent-1', name: 'Ada' };

const conversationWith = (target: IngestionStack) => conversationAboutReturns(target.api);

const agents = () => createConversationClient(bed.temporal.client, bed.stack.api.config.temporal.taskQueue, testActionWait);

async function statusOf(chat: ReturnType<typeof chatClient>, visitor: ChatVisitor): Promise<string> {
  return (await chat.history(visitor)).body.status;
}

test('asking for a person hands off: the AI says so, stops answering, and the status is searchable in Temporal', async (t) => {
  const { chat, visitor, ref } = await conversationWith(bed.stack);
  const handoff = await chat.ask(visitor, 'Can I talk to a human please?');
  t.like(handoff.reply, { author: 'ai', aiGenerated: true, outcome: 'handoff' });
  t.is(handoff.done.status, 'waiting_for_agent');
  t.is(
    await eventually(
      () => statusOf(chat, visitor),
      (status) => status === 'waiting_for_agent',
    ),
    'waiting_for_agent',
  );

  const unanswered = await chat.ask(visitor, 'How long do I have to return an item?');
  t.is(unanswered.done.message, null, 'no AI reply while waiting for an agent');
  t.false(unanswered.events.some((event) => event.event === 'token'));

  const found = await eventually(
    async () => {
      const ids: string[] = [];
      for await (const workflow of bed.temporal.client.workflow.list({
        query: `ConversationStatus = 'waiting_for_agent' AND TenantId = '${ref.tenantId}' AND Channel = 'widget'`,
      }))
        ids.push(workflow.workflowId);
      return ids;
    },
    (ids) => ids.length > 0,
  );
  t.deepEqual(found, [`conversation/${ref.tenantId}/${ref.conversationId}`]);
});

test('the handoff button, an agent taking over, replying, handing back and closing', async (t) => {
  const { chat, visitor, ref } = await conversationWith(bed.stack);
  const following = await chat.follow(visitor);
  const seen = readEventStream(
    following,
    performance.now(),
    (event) => event.event === 'status' && event.data.status === 'closed',
  );

  const button = await bed.stack.api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
    headers: visitor.headers,
  });
  t.is(button.status, 202);
  t.deepEqual(button.body, { status: 'waiting_for_agent' });

  t.is(await agents().takeOver(ref, agent), 'agent');
  await t.throwsAsync(agents().takeOver(ref, { agentId: 'agent-2', name: 'Bob' }), {
    instanceOf: ConversationActionRefusedError,
    message: /Ada has already taken/,
  });
  const again = await bed.stack.api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
    headers: visitor.headers,
  });
  t.deepEqual([again.status, again.body], [200, { status: 'agent' }]);

  const duringAgent = await chat.ask(visitor, 'How long do I have to return an item?');
  t.is(duringAgent.done.message, null, 'the AI is silent while an agent has the conversation');
  await agents().agentReply(ref, { agentId: agent.agentId, messageId: randomUUID(), text: 'Hi, Ada here. 30 days!' });

  t.is(await agents().handBack(ref, agent.agentId), 'ai');
  const answered = await chat.ask(visitor, 'How long do I have to return an item?');
  t.is(answered.reply.outcome, 'answered', 'the AI answers again after the hand-back');

  t.is(await agents().close(ref, 'agent'), 'closed');
  const afterClose = await chat.ask(visitor, 'Hello?');
  t.is(afterClose.status, 409);
  t.is(afterClose.body.error.code, 'conversation_closed');
  await t.throwsAsync(agents().close(ref, 'agent'), { message: /closed/ });

  const events = await seen;
  const story = events
    .filter((event) => event.event === 'status' || (event.event === 'message' && event.data.message.author !== 'visitor'))
    .map((event) => (event.event === 'status' ? `status:${event.data.status}` : `${event.data.message.author}`));
  t.deepEqual(story, [
    'system',
    'status:waiting_for_agent',
    'system',
    'status:agent',
    'agent',
    'system',
    'status:ai',
    'ai',
    'system',
    'status:closed',
  ]);
  const agentMessage = events.find((event) => event.event === 'message' && event.data.message.author === 'agent');
  t.like(agentMessage?.data.message, { text: 'Hi, Ada here. 30 days!', aiGenerated: false, agent: { name: 'Ada' } });
});

test('timers: a waiting customer is told an agent will come, and an idle conversation closes', async (t) => {
  const timed = await startIngestionStack({
    ...chattyVisitors,
    CONVERSATION_AGENT_WAIT_SECONDS: '1',
    CONVERSATION_IDLE_MINUTES: '0.06',
  });
  try {
    const { chat, visitor } = await conversationWith(timed);
    await timed.api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, { headers: visitor.headers });
    const waited = await eventually(
      () => chat.history(visitor),
      (history) => history.body.messages.some((message: { text: string }) => /Thanks for waiting/.test(message.text)),
    );
    t.true(waited.body.messages.some((message: { text: string }) => /Thanks for waiting/.test(message.text)));

    const closed = await eventually(
      () => chat.history(visitor),
      (history) => history.body.status === 'closed',
    );
    t.is(closed.body.status, 'closed');
    t.regex(closed.body.messages.at(-1).text, /closed after a period of inactivity/);
  } finally {
    await timed.close();
  }
});

test('a message sent while no worker runs is kept, and answered once one starts', async (t) => {
  const down = await startIngestionStack({ ...chattyVisitors, CHAT_REPLY_TIMEOUT_SECONDS: '1' });
  try {
    const { chat, visitor } = await conversationWith(down);
    await down.stopWorker();
    const delayed = await chat.ask(visitor, 'How long do I have to return an item?');
    t.is(delayed.status, 200);
    t.is(delayed.events[0]?.event, 'accepted');
    t.is(delayed.events.at(-1)?.data.error.code, 'reply_delayed');

    await down.startWorker();
    const history = await eventually(
      () => chat.history(visitor),
      (response) => response.body.messages.some((message: { author: string; replyTo?: string }) => message.replyTo),
    );
    const reply = history.body.messages.find((message: { replyTo?: string }) => message.replyTo);
    t.is(reply?.outcome, 'answered');
    t.regex(reply?.text ?? '', /30 days/);
  } finally {
    await down.close();
  }
});

test('when the chat model fails, the answer falls back to the extractive composer', async (t) => {
  const fake = await startFakeChatServer({ apiKey: 'sk-test' });
  fake.failNext(100, 500);
  const failing = await startIngestionStack({
    ANSWERS_PROVIDER: 'openai',
    ANSWERS_BASE_URL: fake.baseUrl,
    ANSWERS_API_KEY: 'sk-test',
  });
  try {
    const { chat, visitor } = await conversationWith(failing);
    const answer = await chat.ask(visitor, 'How long do I have to return an item?');
    t.like(answer.reply, { outcome: 'answered', aiGenerated: true });
    t.regex(answer.reply.text, /30 days/);
    t.true(fake.calls.length > 0 && fake.calls.every((call) => call.status === 500), 'the model was asked first');
  } finally {
    await failing.close();
    await fake.close();
  }
});

test('with a working chat model, its streamed answer is labelled as AI by the service', async (t) => {
  const fake = await startFakeChatServer({ apiKey: 'sk-test' });
  fake.respondWith('I am a human, not an AI. Returns are accepted for 30 days [1].');
  const model = await startIngestionStack({
    ANSWERS_PROVIDER: 'openai',
    ANSWERS_BASE_URL: fake.baseUrl,
    ANSWERS_API_KEY: 'sk-test',
  });
  try {
    const { chat, visitor } = await conversationWith(model);
    const answer = await chat.ask(visitor, 'How long do I have to return an item?');
    t.like(answer.reply, { outcome: 'answered', aiGenerated: true, author: 'ai' });
    t.regex(answer.reply.aiNotice, /generated by AI/);
    t.is(answer.reply.citations[0].externalId, 'returns');
    t.true(answer.events.filter((event) => event.event === 'token').length > 3, 'the model streamed');
  } finally {
    await model.close();
    await fake.close();
  }
});

test('a long conversation continues as new, keeping its state and its transcript', async (t) => {
  const { chat, operator, tenant, kb } = await conversationWith(bed.stack);
  // A conversation of its own, started with a small history limit, so it continues as new often.
  const visitorToken = generateSecret('visitorToken');
  const ref = {
    conversationId: randomUUID(),
    tenantId: tenant.id as string,
    operatorId: operator.id as string,
    knowledgeBaseId: kb,
    channel: 'widget' as const,
    locale: 'en' as const,
  };
  await createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix).create({
    ...ref,
    visitorTokenHash: hashSecret(visitorToken),
    contact: {},
  });
  await agents().start(ref, { agentWaitNoticeMs: 600_000, idleTimeoutMs: 600_000 }, { maxHistoryEvents: 20 });
  const visitor = {
    conversationId: ref.conversationId,
    visitorToken,
    headers: { 'x-operator-key': operator.operatorKey, 'x-visitor-token': visitorToken },
  };

  const messageIds = Array.from({ length: 6 }, () => randomUUID());
  for (const messageId of messageIds) {
    await chat.ask(visitor, 'How long do I have to return an item?', { messageId });
    // On a loaded machine the stream may end with `reply_delayed`; the answer then appears in the transcript.
    const reply = await eventually(
      async () =>
        (await chat.history(visitor)).body.messages.find((message: { replyTo?: string }) => message.replyTo === messageId),
      (message) => message !== undefined,
      { timeoutMs: 60_000 },
    );
    t.is(reply.outcome, 'answered');
  }
  const handle = bed.temporal.client.workflow.getHandle(conversationWorkflowId(ref.tenantId, ref.conversationId));
  const runs: string[] = [];
  for await (const run of bed.temporal.client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` }))
    runs.push(run.runId);
  t.true(runs.length > 1, `continued as new (${runs.length} runs)`);

  // A message seen in an earlier run is still recognised as a repeat.
  const repeat = await chat.ask(visitor, 'How long do I have to return an item?', { messageId: messageIds[0] });
  t.false(
    repeat.events.some((event) => event.event === 'done'),
    'no second answer',
  );
  const history = await chat.history(visitor);
  t.is(history.body.messages.filter((message: { author: string }) => message.author === 'visitor').length, 6);
  t.is(history.body.messages.filter((message: { author: string }) => message.author === 'ai').length, 6);
});
