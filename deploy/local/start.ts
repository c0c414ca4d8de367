/**
 * `npm start`: builds what is missing, starts Redis, Weaviate and Temporal, then the API, the
 * worker and the widget files, prints where everything is, and stops it all on Ctrl-C.
 */
import { createAdminClient } from '#cli/admin-client.js';
import { readOrCreateLocalSecrets } from '#platform/local-secrets.js';
import { metricsAddresses, startAppProcesses } from './app-processes.js';
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
  },
  apiProcesses: profile === 'production' ? Number(process.env.API_PROCESSES || 2) : 1,
  workerProcesses,
});

let stopping = false;
async function stopAll(): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('stopping');
  await Promise.all(apps.all.map((app) => app.stop()));
  await stack.stop();
  log('stopped');
}

try {
  await waitUntil('the API', () => httpOk(`${apiUrl}/ready`), { timeoutMs: 90_000, process: apps.api });
  await waitUntil('the widget files', () => httpOk(`${cdnUrl}/health`), { timeoutMs: 30_000, process: apps.cdn });
  const demo = await ensureDemoTenant(createAdminClient({ baseUrl: apiUrl, adminToken: secrets.adminToken }), plan.paths.data);
  process.stdout.write(`
  Knowledge-base assistant is running (${profile} profile). Press Ctrl-C to stop everything.

  REST API         ${apiUrl}   (OpenAPI: ${apiUrl}/openapi.json)
  Temporal UI      ${plan.profile === 'dev' ? `http://127.0.0.1:${plan.temporal.ui}` : 'none in this profile (deploy/compose.yaml runs one)'}
  Widget files     ${cdnUrl}
  Metrics          ${metricsAddresses(process.env, workerProcesses).join('\n                   ') || 'off (METRICS_ENABLED=false)'}
  Admin token      ${secrets.adminToken}

  Demo tenant      ${demo.tenantId}
    knowledge base ${demo.knowledgeBaseId}
    API key        ${demo.apiKey}   (every scope)
    operator key   ${demo.operatorKey}
    widget demo    ${cdnUrl}/demo#${demo.operatorKey}

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
