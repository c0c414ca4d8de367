import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { sampleBusiness } from '#testing/fake-messaging-platform.js';
import { seededRandom } from '#fuzz/hostile-requests.js';
import { createMeasuredTenant, jobStatuses, type MeasuredStack } from '#bench/measured-stack.js';
import { injectFaults, recoverySeconds, type FaultRecord, type FaultTargets, type FaultTiming } from './fault-injector.js';
import { patientJson } from './patient-fetch.js';
import { createProgress, type Problem } from './progress.js';
import { chatsWorkload } from './workloads/chats.js';
import { itemsWorkload } from './workloads/items.js';
import { messagingWorkload } from './workloads/messaging.js';

export interface CampaignSizes {
  items: number;
  chats: number;
  customers: number;
  questionsEach: number;
}

export interface CampaignContext {
  stack: MeasuredStack;
  platform: FakeMessagingPlatform;
  targets: FaultTargets;
  timing: FaultTiming;
  /** How long the workloads may take to settle after the last fault before what is missing counts as stuck. */
  settleMs: number;
  /** Problems noticed outside the workloads (a process that exited on its own), drained by each run. */
  takeProcessProblems(): Problem[];
  log(line: string): void;
}

export interface RunReport {
  seed: number;
  seconds: number;
  problems: Problem[];
  faults: Array<FaultRecord & { recoverySeconds?: number }>;
  figures: Record<string, number | string>;
}

/**
 * One run: a tenant of its own with items, widget visitors and messaging customers all at work while
 * faults are injected; then, once the stack has had `settleMs` to finish, every check through the
 * public API. The seed fixes what is sent and which faults come in which order (the moments depend on
 * the machine's pace too, so a finding reproduces by its seed as a plan, not to the millisecond).
 */
export async function runCampaign(context: CampaignContext, seed: number, sizes: CampaignSizes): Promise<RunReport> {
  const { stack, platform } = context;
  const started = performance.now();
  const progress = createProgress();
  const runTag = `f${seed.toString(36)}r${randomBytes(2).toString('hex')}`;
  const randomFor = (stream: number) => seededRandom(seed * 8 + stream);

  const tenant = await createMeasuredTenant(stack, ['iq:import', 'iq:read']);
  const messaging = await messagingConnection(stack, platform, tenant.tenantId);
  const topics = Array.from({ length: 50 }, (_, i) => `Fault campaign product ${i}`);

  const workloads = [
    itemsWorkload({
      apiUrl: stack.apiUrl,
      headers: tenant.headers,
      knowledgeBaseId: tenant.knowledgeBaseId,
      count: sizes.items,
      random: randomFor(1),
      progress,
      statusesOf: (jobIds) =>
        jobStatuses(
          stack,
          jobIds.map((jobId) => `${stack.prefix}:job:${tenant.tenantId}:${jobId}`),
        ),
    }),
    chatsWorkload({
      apiUrl: stack.apiUrl,
      operatorKey: tenant.operatorKey,
      count: sizes.chats,
      questionsEach: sizes.questionsEach,
      topics,
      random: randomFor(2),
      progress,
    }),
    messagingWorkload({
      apiUrl: stack.apiUrl,
      ...messaging,
      platform,
      count: sizes.customers,
      questionsEach: sizes.questionsEach,
      topics,
      runTag,
      random: randomFor(3),
      progress,
    }),
  ];

  let working = true;
  const sending = Promise.allSettled(workloads.map((workload) => workload.run())).finally(() => (working = false));
  const faults = await injectFaults(
    context.targets,
    randomFor(4),
    () => working,
    context.timing,
    (fault) => context.log(`  ${fault.kind} down for ${((fault.upAt - fault.killedAt) / 1000).toFixed(1)} s`),
  );
  const sent = await sending;
  const problems: Problem[] = sent.flatMap((result, w) =>
    result.status === 'rejected'
      ? [{ workload: workloads[w]!.name, kind: 'failed' as const, what: `sending stopped: ${(result.reason as Error).message}` }]
      : [],
  );

  const deadline = Date.now() + context.settleMs;
  const settled = new Set<string>();
  while (settled.size < workloads.length && Date.now() < deadline) {
    for (const workload of workloads) if (!settled.has(workload.name) && (await workload.settled())) settled.add(workload.name);
    if (settled.size < workloads.length) await sleep(2_000);
  }
  for (const workload of workloads) problems.push(...(await workload.check()));
  problems.push(...context.takeProcessProblems());

  return {
    seed,
    seconds: (performance.now() - started) / 1000,
    problems,
    faults: faults.map((fault) => ({ ...fault, recoverySeconds: recoverySeconds(fault, progress) })),
    figures: Object.assign({}, ...workloads.map((workload) => workload.figures())),
  };
}

/** An admin of the tenant, and a messaging connection of a number of the run's own, made through the API. */
async function messagingConnection(stack: MeasuredStack, platform: FakeMessagingPlatform, tenantId: string) {
  const user = await stack.admin.request<{ token: string }>('POST', `/admin/tenants/${tenantId}/users`, {
    name: 'Campaign admin',
    email: `admin-${tenantId}@example.com`,
    role: 'admin',
  });
  const userHeaders = { authorization: `Bearer ${user.token}` };
  const accessToken = `EAA${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  const phoneNumberId = String(100_000_000_000_000 + Math.floor(Math.random() * 800_000_000_000_000));
  platform.acceptToken(accessToken);
  const credential = await patientJson(
    `${stack.apiUrl}/integrations/credentials`,
    'POST',
    userHeaders,
    {
      type: 'messaging_api',
      name: 'Campaign number',
      data: {
        accessToken,
        businessAccountId: sampleBusiness.businessAccountId,
        phoneNumberId,
        phoneNumber: `+1555${phoneNumberId.slice(-7)}`,
        apiVersion: 'v23.0',
        appSecret,
      },
    },
    [201],
  );
  const info = await patientJson(
    `${stack.apiUrl}/integrations/app-connections/${credential.connectionId}/webhook-info`,
    'GET',
    userHeaders,
    undefined,
  );
  return { userHeaders, appSecret, phoneNumberId, webhookUrl: `${stack.apiUrl}/webhooks/messaging_api/${info.webhookPath}` };
}
