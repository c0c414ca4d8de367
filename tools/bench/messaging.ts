/**
 * `npm run bench:messaging [-- --deliveries 500 --customers 100]`: the messaging channel on a stack
 * of its own (API and worker processes, real Temporal, Weaviate and Redis), with the local fake of
 * the messaging platform both sending signed deliveries to our webhook and receiving our replies.
 *  - webhook acknowledgement: from sending a signed text delivery until our 200 (signature check,
 *    conversation found or started, signal durable in Temporal): one at a time on the idle stack,
 *    then arriving at a steady `--rate` per second while the worker answers the earlier ones;
 *    beside it the same run's bare `/live` route (8 in flight) as the baseline;
 *  - inbound to outbound: one question per customer, one at a time on the idle stack; from the
 *    delivery until the platform receives the AI's answer (default extractive composer).
 * Goals: acknowledgement p99 under 50 ms, reply p95 under 1 s.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { evalCorpus } from '#eval/corpus.js';
import { deliver, inboundText, sampleBusiness, startFakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { createMeasuredTenant, ingestAll, percentile, round, startMeasuredStack, waitFor } from './measured-stack.js';

const { values: args } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '500' },
    customers: { type: 'string', default: '100' },
    rate: { type: 'string', default: '5' },
  },
});
const deliveryCount = Number(args.deliveries);
const customerCount = Number(args.customers);
const ratePerSecond = Number(args.rate);
/** How often the platform's received messages are looked at: often, so that the next delivery is not held back. */
const pollMs = 5;

const platform = await startFakeMessagingPlatform();
const stack = await startMeasuredStack('bench-messaging', { GRAPH_API_BASE_URL: platform.url });
try {
  await stack.startApps();
  const tenant = await createMeasuredTenant(stack, ['iq:import', 'iq:read']);
  const { failed } = await ingestAll(stack, tenant, evalCorpus);
  if (failed > 0) throw new Error(`${failed} items failed to ingest`);

  const admin = await stack.admin.request<{ token: string }>('POST', `/admin/tenants/${tenant.tenantId}/users`, {
    name: 'Bench admin',
    email: 'bench@example.com',
    role: 'admin',
  });
  const appSecret = randomBytes(16).toString('hex');
  const userHeaders = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
  const credential = await (
    await fetch(`${stack.apiUrl}/integrations/credentials`, {
      method: 'POST',
      headers: userHeaders,
      body: JSON.stringify({
        type: 'messaging_api',
        name: 'Bench number',
        data: {
          accessToken: 'EAAFakeSystemUserToken0123456789',
          businessAccountId: sampleBusiness.businessAccountId,
          phoneNumberId: sampleBusiness.phoneNumberId,
          phoneNumber: '+15550100123',
          apiVersion: 'v23.0',
          appSecret,
        },
      }),
    })
  ).json();
  const info = await (
    await fetch(`${stack.apiUrl}/integrations/app-connections/${credential.connectionId}/webhook-info`, { headers: userHeaders })
  ).json();
  const webhookUrl = `${stack.apiUrl}/webhooks/messaging_api/${info.webhookPath}`;
  const phoneNumberId = sampleBusiness.phoneNumberId;
  const customers = Array.from({ length: customerCount }, (_, i) => `4915${String(100_000_000 + i)}`);
  const questions = evalCorpus.map((item) => `What about ${item.data.title}?`);

  // Warm-up: connections, the first workflows and activities.
  for (const from of customers.slice(0, 5))
    await deliver(webhookUrl, inboundText({ text: 'Hi', phoneNumberId, from }), { appSecret });

  // 1a. Acknowledgement on the idle stack, one delivery at a time (each answer goes out before the next).
  const idleAckMs: number[] = [];
  for (let i = 0; i < customerCount; i++) {
    const body = inboundText({ text: questions[i % questions.length]!, phoneNumberId, from: customers[i % customers.length] });
    const before = platform.sent.length;
    const started = performance.now();
    const { status } = await deliver(webhookUrl, body, { appSecret });
    idleAckMs.push(performance.now() - started);
    if (status !== 200) throw new Error(`delivery answered ${status}`);
    await waitFor(() => platform.sent.length > before, pollMs, 30_000);
  }

  // 1b. Acknowledgement under load: deliveries arrive at a steady rate (open loop, as the platform
  // sends them, whatever our answers), while the worker answers the earlier ones.
  const ackMs: number[] = [];
  const sentBefore = platform.sent.length;
  const arrivals = Array.from({ length: deliveryCount }, (_, i) =>
    sleep((i * 1000) / ratePerSecond).then(async () => {
      // A customer of their own each: one answer per delivery, however the AI fares.
      const from = `4916${String(100_000_000 + i)}`;
      const body = inboundText({ text: questions[i % questions.length]!, phoneNumberId, from });
      const started = performance.now();
      const { status } = await deliver(webhookUrl, body, { appSecret });
      ackMs.push(performance.now() - started);
      if (status !== 200) throw new Error(`delivery answered ${status}`);
    }),
  );
  await Promise.all(arrivals);
  const liveMs: number[] = [];
  const inFlight = pLimit(8);
  await Promise.all(
    Array.from({ length: deliveryCount }, () =>
      inFlight(async () => {
        const started = performance.now();
        await (await fetch(`${stack.apiUrl}/live`)).arrayBuffer();
        liveMs.push(performance.now() - started);
      }),
    ),
  );

  // Let the worker answer the load before measuring replies on an idle stack.
  await waitFor(() => platform.sent.length >= sentBefore + deliveryCount, pollMs, 180_000);

  // 2. Inbound to outbound, one customer at a time, each a new customer (a new conversation).
  const replyMs: number[] = [];
  for (let i = 0; i < customerCount; i++) {
    const from = `4930${String(200_000_000 + i)}`;
    const before = platform.sent.length;
    const started = Date.now();
    await deliver(webhookUrl, inboundText({ text: questions[i % questions.length]!, phoneNumberId, from }), { appSecret });
    await waitFor(() => platform.sent.slice(before).some((sent) => sent.body.to === from), pollMs, 30_000);
    const reply = platform.sent.slice(before).find((sent) => sent.body.to === from)!;
    replyMs.push(Date.parse(reply.at) - started);
  }

  const figures = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)), p99: round(percentile(sorted, 0.99)) };
  };
  const idleAck = figures(idleAckMs);
  const ack = figures(ackMs);
  const live = figures(liveMs);
  const reply = figures(replyMs);
  console.log(
    `\nbench:messaging (${deliveryCount} deliveries at ${ratePerSecond}/s from ${customerCount} customers, profile ${stack.profile})`,
  );
  console.table({
    'webhook acknowledgement, idle (ms)': idleAck,
    [`webhook acknowledgement at ${ratePerSecond}/s (ms)`]: ack,
    'baseline: GET /live (ms)': live,
    'inbound → reply at the platform (ms)': reply,
  });
  console.log(`acknowledgement p99 / baseline p99: ${round(ack.p99 / live.p99)}`);
  console.log(
    `goal: acknowledgement p99 < 50 ms: ${ack.p99 < 50 ? 'met' : 'NOT met'}; reply p95 < 1000 ms: ${reply.p95 < 1000 ? 'met' : 'NOT met'}`,
  );
} finally {
  await stack.stop();
  await platform.close();
}
