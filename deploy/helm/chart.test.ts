/**
 * The Helm chart, rendered with `helm template` (default values, and a production-shaped values file)
 * and every manifest decoded strictly into its Kubernetes API type by the checker (deploy/helm/checker);
 * then what the chart promises, read from the rendered objects: probes on the paths each process
 * serves, resources, a non-root read-only container, an HPA, a PDB and a Service per Deployment, the
 * variables production needs with every secret from the Secret, and a kill deadline longer than the
 * processes' own shutdown deadline. No cluster: nothing outside the machine is reached.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { parse, parseAllDocuments } from 'yaml';
import { variables, type ProcessRole, type VariableSpec } from '#platform/config-variables.js';
import { apiStopDeadlineMs } from '#api/shutdown.js';
import { workerStopDeadlineMs } from '#worker/shutdown.js';
import { chartDir, checkedKubernetesVersion, ensureChartTools } from './chart-tools.js';

const execFileAsync = promisify(execFile);
const specs: Record<string, VariableSpec> = variables;
const roles: ProcessRole[] = ['api', 'worker', 'cdn'];
const valuesFiles = { default: undefined, production: join(chartDir, 'ci', 'production-values.yaml') };
type Rendering = keyof typeof valuesFiles;

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

let tools: { helm: string; checker: string };
const rendered = new Map<Rendering, string>();

test.before(async () => {
  tools = await ensureChartTools();
  for (const [name, file] of Object.entries(valuesFiles) as Array<[Rendering, string | undefined]>) {
    rendered.set(name, await helmTemplate(file ? ['-f', file] : []));
  }
});

async function helmTemplate(args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(tools.helm, [
    'template',
    'kb',
    chartDir,
    '--kube-version',
    checkedKubernetesVersion(),
    ...args,
  ]);
  return stdout;
}

/** The checker's verdict on some manifests: its exit code and what it printed. */
function check(manifests: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(tools.checker, [], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
    child.stdin!.end(manifests);
  });
}

function manifestsOf(rendering: Rendering): Manifest[] {
  return parseAllDocuments(rendered.get(rendering)!)
    .map((document) => document.toJSON() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

const componentOf = (manifest: Manifest) => manifest.metadata.labels?.['app.kubernetes.io/component'] as ProcessRole;

for (const rendering of Object.keys(valuesFiles) as Rendering[]) {
  test(`${rendering} values: every manifest decodes strictly into its Kubernetes type`, async (t) => {
    const verdict = await check(rendered.get(rendering)!);
    t.is(verdict.code, 0, verdict.output);
    t.regex(verdict.output, /^\d+ manifests decoded strictly$/m);

    const kinds = manifestsOf(rendering).map((m) => `${m.apiVersion} ${m.kind}`);
    for (const kind of ['apps/v1 Deployment', 'v1 Service', 'policy/v1 PodDisruptionBudget']) {
      t.is(kinds.filter((k) => k === kind).length, 3, kind);
    }
    t.is(kinds.filter((k) => k === 'autoscaling/v2 HorizontalPodAutoscaler').length, rendering === 'default' ? 3 : 2);
    t.is(kinds.includes('networking.k8s.io/v1 Ingress'), rendering === 'production');
    t.is(kinds.includes('v1 Secret'), rendering === 'default', 'a Secret only when none is named');
  });

  test(`${rendering} values: each Deployment is probed, bounded, unprivileged and has its Service, HPA and PDB`, (t) => {
    const manifests = manifestsOf(rendering);
    const compose = parse(readFileSync(join(chartDir, '..', '..', 'compose.yaml'), 'utf8')) as {
      services: Record<string, { command: string[] }>;
    };
    const deployments = manifests.filter((m) => m.kind === 'Deployment');
    t.deepEqual(deployments.map(componentOf).sort(), ['api', 'cdn', 'worker']);

    for (const deployment of deployments) {
      const component = componentOf(deployment);
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      const env = new Map<string, any>(container.env.map((e: any) => [e.name, e]));
      const named = (message: string) => `${component}: ${message}`;

      t.deepEqual(container.command, compose.services[component]!.command, named('the process compose.yaml runs'));
      const [port] = container.ports;
      const portVariable = { api: 'PORT', worker: 'HEALTH_PORT', cdn: 'CDN_PORT' }[component];
      t.is(String(port.containerPort), env.get(portVariable)?.value, named(`the container port is ${portVariable}`));
      const paths = component === 'cdn' ? { ready: '/health', live: '/health' } : { ready: '/ready', live: '/live' };
      t.like(container.readinessProbe, { httpGet: { path: paths.ready, port: port.name } }, named('readiness'));
      t.like(container.livenessProbe, { httpGet: { path: paths.live, port: port.name } }, named('liveness'));

      for (const bound of ['requests', 'limits']) {
        t.truthy(container.resources?.[bound]?.cpu && container.resources?.[bound]?.memory, named(`cpu and memory ${bound}`));
      }
      t.like(pod.securityContext, { runAsNonRoot: true }, named('non-root'));
      t.like(
        container.securityContext,
        { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        named('read-only, no privilege escalation'),
      );
      t.false(pod.automountServiceAccountToken, named('no Kubernetes API token'));

      const selects = (selector: Record<string, string>) =>
        Object.entries(selector).every(([key, value]) => deployment.spec.template.metadata.labels[key] === value);
      const service = manifests.find((m) => m.kind === 'Service' && selects(m.spec.selector));
      t.truthy(service, named('a Service selects it'));
      t.is(service?.spec.ports[0].targetPort, port.name, named('the Service reaches its port'));
      t.truthy(
        manifests.find((m) => m.kind === 'PodDisruptionBudget' && selects(m.spec.selector.matchLabels)),
        named('a PodDisruptionBudget covers it'),
      );
      const autoscaler = manifests.find(
        (m) => m.kind === 'HorizontalPodAutoscaler' && m.spec.scaleTargetRef.name === deployment.metadata.name,
      );
      t.is(autoscaler === undefined, deployment.spec.replicas !== undefined, named('an HPA or a fixed replica count'));
    }
  });

  test(`${rendering} values: Kubernetes waits longer than each process's shutdown deadline`, (t) => {
    for (const deployment of manifestsOf(rendering).filter((m) => m.kind === 'Deployment')) {
      const component = componentOf(deployment);
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      const preStopSeconds = Number(container.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      const graceMs = Number(container.env.find((e: any) => e.name === 'SHUTDOWN_GRACE_SECONDS')?.value ?? 0) * 1000;
      // The widget files have no grace of their own: they close their listener and answer what is open.
      const processMs = { api: apiStopDeadlineMs(graceMs), worker: workerStopDeadlineMs(graceMs), cdn: 0 }[component];
      const neededSeconds = preStopSeconds + processMs / 1000;
      t.true(component === 'cdn' || graceMs > 0, `${component}: SHUTDOWN_GRACE_SECONDS is set`);
      t.true(
        pod.terminationGracePeriodSeconds > neededSeconds && pod.terminationGracePeriodSeconds <= neededSeconds + 10,
        `${component}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} for ${neededSeconds} s of shutdown`,
      );
    }
  });

  test(`${rendering} values: the API and the worker serve their metrics on ports Prometheus can reach`, (t) => {
    for (const deployment of manifestsOf(rendering).filter((m) => m.kind === 'Deployment')) {
      const component = componentOf(deployment);
      const [container] = deployment.spec.template.spec.containers;
      const env = new Map<string, string>(container.env.map((e: any) => [e.name, e.value]));
      const ports = new Map<string, number>(container.ports.map((p: any) => [p.name, p.containerPort]));
      if (component === 'cdn') {
        t.false(ports.has('metrics'), 'the widget files have no metrics');
        continue;
      }
      t.is(env.get('METRICS_HOST'), '0.0.0.0', `${component}: metrics listen beyond the pod's loopback`);
      const own = component === 'api' ? 'METRICS_PORT' : 'WORKER_METRICS_PORT';
      t.is(env.get(own), String(ports.get('metrics')), `${component}: the metrics port is ${own}`);
      t.is(deployment.spec.template.metadata.annotations['prometheus.io/port'], env.get(own));
      if (component === 'worker') t.is(env.get('TEMPORAL_METRICS_PORT'), String(ports.get('temporal-metrics')));
    }
  });

  test(`${rendering} values: each process gets what production needs, and its secrets from the Secret only`, (t) => {
    const manifests = manifestsOf(rendering);
    const configMap = manifests.find((m) => m.kind === 'ConfigMap')!;
    for (const [name, value] of Object.entries(configMap.data ?? {})) {
      t.truthy(specs[name], `config.${name} is a variable of platform/config-variables.ts`);
      t.falsy(specs[name]?.secret, `config.${name} is a secret: it belongs in the Secret`);
      t.not(value, '', `config.${name} is empty`);
    }

    for (const deployment of manifests.filter((m) => m.kind === 'Deployment')) {
      const component = componentOf(deployment);
      const env: any[] = deployment.spec.template.spec.containers[0].env;
      const set = new Map(env.map((e) => [e.name, e]));
      for (const [name, spec] of Object.entries(specs)) {
        const given = set.get(name);
        if (spec.secret && given) {
          t.truthy(given.valueFrom?.secretKeyRef, `${component}: ${name} comes from the Secret, never a literal`);
        }
        if (!spec.usedBy.includes(component)) continue;
        const loopbackDefault = /127\.0\.0\.1|localhost/.test(String(spec.default ?? ''));
        if (spec.requiredInProduction || loopbackDefault) {
          t.truthy(given ?? configMap.data?.[name], `${component} must be given ${name} (${spec.description})`);
        }
        if (spec.secret) {
          t.like(
            given?.valueFrom?.secretKeyRef,
            { key: name, optional: !spec.requiredInProduction && name !== 'REDIS_URL' },
            `${component}: ${name}`,
          );
        }
      }
      if (rendering === 'default') {
        for (const name of set.keys())
          t.truthy(specs[name], `${component}: ${name} is a variable of platform/config-variables.ts`);
      }
    }
  });
}

test('the checker refuses a misspelt field, an API version no cluster serves and a variable the chart owns', async (t) => {
  const misspelt = rendered.get('default')!.replace(/(\n\s+)imagePullPolicy:/, '$1imagePullPolicyy:');
  const refused = await check(misspelt);
  t.is(refused.code, 1);
  t.regex(
    refused.output,
    /^kb-assistant\/templates\/deployment\.yaml \(apps\/v1 Deployment kb-kb-assistant-api\): .*unknown field "spec\.template\.spec\.containers\[0\]\.imagePullPolicyy"$/m,
  );
  t.regex(refused.output, /^1 of \d+ manifests refused$/m);

  const beta = rendered.get('default')!.replace('apiVersion: autoscaling/v2', 'apiVersion: autoscaling/v2beta2');
  const old = await check(beta);
  t.is(old.code, 1);
  t.regex(
    old.output,
    /HorizontalPodAutoscaler kb-kb-assistant-api\): no kind "HorizontalPodAutoscaler" is registered for version "autoscaling\/v2beta2"/,
  );

  const error = await helmTemplate(['--set', 'config.PORT=80']).then(
    () => undefined,
    (failure: { stderr: string }) => failure.stderr,
  );
  t.regex(error ?? '', /config\.PORT is set by the chart/);
});
