import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import test from 'ava';
import type { ChatMessage } from '#conversations/chat-message.js';
import type { ChannelState } from '#messaging/channel-state.js';
import type { GraphClient } from '#messaging/graph-client.js';
import type { ConversationRef } from '#workflows/conversations/types.js';
import { createDeliveryActivities, type DeliveryActivityDeps } from './deliver-messages.js';

// The activity's own part, without servers: its budget and claim from the attempt's timeout, its
// cancellation, and a busy conversation as a retryable failure. Delivery itself is tested on the
// real Redis and the fake platform (lib/messaging/delivery.test.ts).

const ref: ConversationRef = {
  conversationId: 'conversation-1',
  tenantId: 'tenant-1',
  operatorId: 'operator-1',
  knowledgeBaseId: 'kb-1',
  channel: 'messaging',
  locale: 'en',
  messaging: { connectionId: 'connection-1', customer: '15550000001' },
};

/** An agent reply of two parts (the platform takes 4,096 characters a message). */
const reply: ChatMessage = {
  id: 'reply-1',
  author: 'agent',
  text: `${'a'.repeat(4000)} ${'b'.repeat(200)}`,
  createdAt: new Date().toISOString(),
  aiGenerated: false,
  agent: { name: 'Ada' },
};

/** One conversation holding `reply`, its window open, on in-memory stand-ins that count what is sent and claimed. */
function setUp(options: { claim?: string; onSend?: () => void } = {}) {
  const sent: object[] = [];
  const claims: number[] = [];
  const channel: Partial<ChannelState> = {
    claimDelivery: async (_conversationId, ttlMs) => (claims.push(ttlMs), options.claim),
    holdsDelivery: async () => true,
    releaseDelivery: async () => undefined,
    deliveryCursor: async () => 0,
    advanceDeliveryCursor: async () => undefined,
    deliveryOf: async () => undefined,
    windowOpenUntil: async () => new Date(Date.now() + 3_600_000),
    lastCustomerMessageId: async () => undefined,
    partsSent: async (_conversationId, _messageId, count) => Array.from({ length: count }, () => undefined),
    recordPartSent: async () => undefined,
    recordSent: async () => undefined,
  };
  const graph: Pick<GraphClient, 'sendMessage'> = {
    sendMessage: async (_credential, payload) => {
      sent.push(payload);
      options.onSend?.();
      return { messageId: `wamid.${sent.length}` };
    },
  };
  const deps = (reserveMs?: number): DeliveryActivityDeps => ({
    transcript: { readFrom: async () => [{ position: 0, message: reply }] },
    channel: channel as ChannelState,
    connections: {
      get: async (id) => ({ id, phoneNumberId: '1092', apiVersion: 'v23.0', status: 'active' }),
      credentialsOf: async () => ({ accessToken: 'token' }),
      markTokenInvalid: async () => undefined,
    },
    graph: graph as GraphClient,
    ...(reserveMs === undefined ? {} : { reserveMs }),
  });
  const run = (env: MockActivityEnvironment, reserveMs?: number) =>
    env.run(createDeliveryActivities(deps(reserveMs)).deliverMessages, { conversation: ref });
  return { sent, claims, run };
}

/** One attempt of the activity; its own logs (a failed attempt is logged) are not this test's output. */
const attempt = (startToCloseTimeoutMs: number) =>
  new MockActivityEnvironment({ isLocal: true, startToCloseTimeoutMs }, { logger: new DefaultLogger('ERROR') });

test('a run claims the conversation for its timeout and, within its budget, sends every part', async (t) => {
  const { sent, claims, run } = setUp({ claim: 'claim-1' });
  t.like(await run(attempt(60_000)), { sent: 1, failed: 0, more: false });
  t.is(sent.length, 2);
  t.deepEqual(claims, [60_000]);
});

test('the budget is the timeout less the reserve: spent, a run sends one part and leaves the rest', async (t) => {
  const { sent, run } = setUp({ claim: 'claim-1' });
  t.like(await run(attempt(1_000), 1_000), { sent: 0, more: true });
  t.is(sent.length, 1);
});

test('a cancelled attempt starts no further send', async (t) => {
  const env = attempt(60_000);
  const { sent, run } = setUp({ claim: 'claim-1', onSend: () => env.cancel() });
  await t.throwsAsync(run(env), { instanceOf: CancelledFailure });
  t.is(sent.length, 1);
});

test('a conversation another run is delivering fails the attempt for a retry', async (t) => {
  const { sent, run } = setUp();
  const error = await t.throwsAsync(run(attempt(60_000)), { instanceOf: ApplicationFailure });
  t.like(error, { type: 'delivery_busy', nonRetryable: false });
  t.is(sent.length, 0);
});
