/**
 * `npm start`: builds what is missing, starts Redis, Weaviate and Temporal, then the API, the
 * worker and the widget files, prints where everything is, and stops it all on Ctrl-C.
 */
import { createAdminClient, createApiClient } from '#cli/admin-client.js';
import { readOrCreateLocalSecrets } from '#platform/local-secrets.js';
import { variables } from '#platform/config-variables.js';
import { metricsAddresses, startAppProcesses } from './app-processes.js';
import { loadDemoContent } from './demo-content.js';
import { describeSeeding, publishDemoHelpCentre } from './demo-seed.js';
import { ensureDemoTenant } from './demo-tenant.js';
import { log } from './output.js';
import { httpOk, waitUntil } from './processes.js';
import { stackPlan, startStack, type Profile } from './stack.js';

const profile = (process.env.STACK_PROFILE ?? 'dev') as Profile;
if (profile !== 'dev' && profile !== 'production') {
  log(`STACK_PROFILE must be dev or production (got ${JSON.stringify(profile)})`);
  process.exit(2);
}

const plan = stackPlan('start', process.env.DATA_DIR || '.data', profile);
const secrets = readOrCreateLocalSecrets(plan.paths.data);
const port = Number(process.env.PORT || 3000);
const cdnPort = Number(process.env.CDN_PORT || 3001);
const apiUrl = `http://127.0.0.1:${port}`;
const cdnUrl = `http://127.0.0.1:${cdnPort}`;
// The demo tenant's help centre, published at every start unless DEMO=0 (read now: a broken file stops the start here).
const demoContent = ['0', 'false'].includes(process.env.DEMO ?? '') ? undefined : loadDemoContent();

log(`starting the ${profile} stack; data in ${plan.paths.data}`);
const stack = await startStack(plan);
const workerProcesses = profile === 'production' ? Number(process.env.WORKER_PROCESSES || 2) : 1;
const apps = startAppProcesses({
  paths: plan.paths,
  env: {
    ...process.env,
    ...stack.env,
    NODE_ENV: 'development',
    // Connectors may read a shop or site on this machine (OUTBOUND_ALLOW_PRIVATE_NETWORKS=false to try the production rule).
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: process.env.OUTBOUND_ALLOW_PRIVATE_NETWORKS || 'true',
    PORT: String(port),
    CDN_PORT: String(cdnPort),
    ADMIN_TOKEN: secrets.adminToken,
    SECRETS_KEY: secrets.secretsKey,
    // What the widget demo page suggests asking: questions the demo help centre answers.
    ...(demoContent && { DEMO_QUESTIONS: JSON.stringify(demoContent.suggestedQuestions.map(({ question }) => question)) }),
  },
  apiProcesses: profile === 'production' ? Number(process.env.API_PROCESSES || 2) : 1,
  workerProcesses,
});

// Ctrl-C gives our processes their whole shutdown grace: the worker lets running activities finish for
// SHUTDOWN_GRACE_SECONDS, then gives up 10 s later; 5 s more before they are killed (as the Helm chart does).
const shutdownGraceSeconds = Number(process.env.SHUTDOWN_GRACE_SECONDS ?? variables.SHUTDOWN_GRACE_SECONDS.default);
const stopDeadlineMs = (shutdownGraceSeconds + 10 + 5) * 1000;

let stopping = false;
async function stopAll(): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('stopping');
  await Promise.all(apps.all.map((app) => app.stop(stopDeadlineMs)));
  await stack.stop();
  log('stopped');
}

try {
  await waitUntil('the API', () => httpOk(`${apiUrl}/ready`), { timeoutMs: 90_000, process: apps.api });
  await waitUntil('the widget files', () => httpOk(`${cdnUrl}/health`), { timeoutMs: 30_000, process: apps.cdn });
  const api = {
    admin: createAdminClient({ baseUrl: apiUrl, adminToken: secrets.adminToken }),
    asUser: (token: string) => createApiClient({ baseUrl: apiUrl, headers: { authorization: `Bearer ${token}` } }),
  };
  const demo = await ensureDemoTenant(api, plan.paths.data);
  let helpCentre = 'not seeded by this start (DEMO=0)';
  if (demoContent) {
    log(`publishing the demo help centre (${demoContent.articles.length} articles) and waiting for the AI to take it in`);
    const tenant = createApiClient({ baseUrl: apiUrl, headers: { 'x-api-key': demo.apiKey } });
    const published = await publishDemoHelpCentre({ admin: api.admin, tenant }, demo.knowledgeBaseId, demoContent, {
      timeoutMs: 180_000,
    });
    helpCentre = describeSeeding(published);
  }
  const suggestions =
    demoContent?.suggestedQuestions.map(({ question }) => `\n                   try "${question}"`).join('') ?? '';
  process.stdout.write(`
  Knowledge-base assistant is running (${profile} profile). Press Ctrl-C to stop everything.

  REST API         ${apiUrl}   (OpenAPI: ${apiUrl}/openapi.json)
  Temporal UI      ${plan.profile === 'dev' ? `http://127.0.0.1:${plan.temporal.ui}` : 'none in this profile (deploy/compose.yaml runs one)'}
  Widget files     ${cdnUrl}
  Metrics          ${metricsAddresses(process.env, workerProcesses).join('\n                   ') || 'off (METRICS_ENABLED=false)'}
  Admin token      ${secrets.adminToken}

  Demo tenant      ${demo.tenantId}
    knowledge base ${demo.knowledgeBaseId}
    help centre    ${helpCentre}
                   ${apiUrl}/help/${demo.knowledgeBaseId}   (the pages the AI cites)
    API key        ${demo.apiKey}   (every scope)
    operator key   ${demo.operatorKey}
    widget demo    ${cdnUrl}/demo#${demo.operatorKey}${suggestions}
    agent token    ${demo.agentToken}   (an agent user: sign in to the agent inbox with it)
    agent inbox    ${apiUrl}/agent

  Data and logs    ${plan.paths.data}
\n`);
} catch (error) {
  log(`start-up failed: ${(error as Error).message}`);
  await stopAll();
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stopAll().then(() => process.exit(0)));
}
