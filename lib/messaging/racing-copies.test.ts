import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createLogger } from '#platform/logger.js';
import { useTestRedis } from '#testing/redis.js';
import { createEventPublisher } from '#conversations/events.js';
import { createChannelState } from './channel-state.js';
import { createInbound, TakingInUnfinishedError, type InboundDeps } from './inbound.js';
import type { WebhookEvent } from './webhook-payload.js';

/*
 * A copy of a message arriving while another copy is still taking it in (real Redis; the
 * conversation side stubbed at the module's boundary, as this copy never reaches it): it waits
 * for that copy, and is a duplicate once it is done, or asks to be delivered again when it is not.
 */

const testRedis = useTestRedis(test);

function inboundWaiting(racingCopyWaitMs: number) {
  const redis = testRedis.redis();
  const channel = createChannelState(redis, testRedis.prefix, createEventPublisher(redis, testRedis.prefix));
  const unused = () => {
    throw new Error('a duplicate must not reach the conversation');
  };
  const inbound = createInbound({
    channel,
    records: { create: unused, get: unused, remove: unused },
    conversations: { receiveCustomerMessage: unused, offerCustomerMessage: unused, reportWindowClosed: unused },
    tenancy: { listOperators: unused },
    timers: { agentWaitNoticeMs: 60_000, idleTimeoutMs: 60_000 },
    logger: createLogger({ level: 'silent', name: 'test' }),
    racingCopyWaitMs,
  } as unknown as InboundDeps);
  return { channel, inbound };
}

const connection = () => ({ id: randomUUID(), tenantId: 't', operatorId: 'o', phoneNumberId: '100' });
const message = (messageId: string): WebhookEvent =>
  ({
    kind: 'message',
    phoneNumberId: '100',
    messageId,
    from: '15550001111',
    timestamp: new Date().toISOString(),
    type: 'text',
    text: 'Hello',
  }) as WebhookEvent;

test('a copy arriving while another is taking the message in waits for it; still unfinished, it asks to be delivered again', async (t) => {
  const { channel, inbound } = inboundWaiting(300);
  const on = connection();
  t.is(await channel.claimTakingIn(on.id, 'wamid.1'), 'claimed', 'the first copy is under way');

  await t.throwsAsync(inbound.takeIn(on, [message('wamid.1')]), { instanceOf: TakingInUnfinishedError });
});

test('a copy arriving while another is taking the message in counts as the duplicate once that copy is done', async (t) => {
  const { channel, inbound } = inboundWaiting(5_000);
  const on = connection();
  t.is(await channel.claimTakingIn(on.id, 'wamid.2'), 'claimed');

  const second = inbound.takeIn(on, [message('wamid.2')]);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await channel.markTakenIn(on.id, 'wamid.2');
  t.like(await second, { messages: 0, duplicates: 1 });
});
