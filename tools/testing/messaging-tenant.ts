import { randomBytes } from 'node:crypto';
import { createEventPublisher } from '#conversations/events.js';
import { createChannelState, type ChannelState } from '#messaging/channel-state.js';
import { createUser, type TestApi } from './api.js';
import { chattingTenant } from './chat.js';
import { deliver, inboundText, sampleBusiness, type FakeMessagingPlatform } from './fake-messaging-platform.js';
import { waitForJobs } from './ingestion.js';

/** The messaging channel's state on the test API's Redis, under its prefix unless told: what a test reads of it. */
export function channelStateOf(api: TestApi, prefix = api.config.redis.prefix): ChannelState {
  return createChannelState(api.redis, prefix, createEventPublisher(api.redis, prefix));
}

/** `n` random digits, not starting with 0: a number id, a phone number, a customer's wa_id. */
export const randomDigits = (n: number) =>
  Array.from(randomBytes(n), (byte) => byte % 10)
    .join('')
    .replace(/^0/, '1');

/**
 * A tenant with an operator, an admin, and a messaging connection of its own number, token and app
 * secret, made through the API as a tenant does it, and one customer writing to that number. With
 * `items`, the tenant's knowledge base holds them, searchable, first.
 */
export async function messagingTenant(api: TestApi, platform: FakeMessagingPlatform, items: object[] = []) {
  const tenant = await chattingTenant(api);
  if (items.length > 0) {
    const ingested = await api.request('POST', '/ingest/bulk', { headers: tenant.headers, body: { items } });
    await waitForJobs(api, tenant.headers, ingested.body.jobIds);
  }
  const { headers } = await createUser(api, tenant.tenant.id, 'admin');
  const accessToken = `EAA${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  const phoneNumberId = randomDigits(15);
  platform.acceptToken(accessToken);
  const created = await api.request('POST', '/integrations/credentials', {
    headers,
    body: {
      type: 'messaging_api',
      name: 'Shop on WhatsApp',
      data: {
        accessToken,
        businessAccountId: sampleBusiness.businessAccountId,
        phoneNumberId,
        phoneNumber: `+1555${randomDigits(7)}`,
        apiVersion: 'v23.0',
        appSecret,
      },
    },
  });
  if (created.status !== 201) throw new Error(`credential: ${created.status} ${JSON.stringify(created.body)}`);
  const connectionId = created.body.connectionId as string;
  const info = (await api.request('GET', `/integrations/app-connections/${connectionId}/webhook-info`, { headers })).body;
  const webhookUrl = `${api.url}/webhooks/messaging_api/${info.webhookPath}`;
  const customer = randomDigits(11);
  return {
    tenant,
    connectionId,
    phoneNumberId,
    accessToken,
    appSecret,
    webhookUrl,
    verifyToken: info.verifyToken as string,
    customer,
    /** Signs and delivers a body as the platform does. */
    send: (body: object | string) => deliver(webhookUrl, body, { appSecret }),
    /** A text from this customer to this number. */
    text: (text: string, id?: string) =>
      inboundText({ text, phoneNumberId, from: customer, name: 'Grace', ...(id ? { id } : {}) }),
    /** What the platform received for this customer, in order. */
    received: () => platform.sent.filter((sent) => sent.phoneNumberId === phoneNumberId && sent.body.to === customer),
    /** Every call to the platform's send endpoint for this number, refused ones too. */
    calls: () => platform.requests.filter((request) => request.path.includes(`/${phoneNumberId}/messages`)),
    /** The customer's conversation, once there is one. */
    conversationId: () => channelStateOf(api).conversationOf(connectionId, customer),
  };
}

export type MessagingTenant = Awaited<ReturnType<typeof messagingTenant>>;
