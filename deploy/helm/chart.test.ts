/**
 * The Helm chart, rendered with `helm template` (default values, the default values with the embedder
 * Deployment on, and a production-shaped values file) and every manifest decoded strictly into its
 * Kubernetes API type by the checker (deploy/helm/checker); then what the chart promises, read from the
 * rendered objects: probes on the paths each process serves, resources, a non-root read-only container,
 * an HPA, a PDB and a Service per Deployment, the variables production needs with every secret from the
 * Secret, a kill deadline longer than the processes' own shutdown deadline, and the workers' roles. No
 * cluster: nothing outside the machine is reached.
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
const productionValues = join(chartDir, 'ci', 'production-values.yaml');
/** Each rendering's `helm template` arguments. */
const renderings = {
  default: [],
  embedder: ['--set', 'embedder.enabled=true'],
  production: ['-f', productionValues],
} satisfies Record<string, string[]>;
type Rendering = keyof typeof renderings;
/** What each rendering deploys: the embedder is on in two of them. */
const components: Record<Rendering, Component[]> = {
  default: ['api', 'cdn', 'worker'],
  embedder: ['api', 'cdn', 'embedder', 'worker'],
  production: ['api', 'cdn', 'embedder', 'worker'],
};
/** Deployments scaled by an HPA: every one, but the widget files' in production (a fixed count). */
const autoscaled: Record<Rendering, number> = { default: 3, embedder: 4, production: 3 };

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
  for (const [name, args] of Object.entries(renderings) as Array<[Rendering, string[]]>) {
    rendered.set(name, await helmTemplate(args));
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

/** A Deployment of the chart: a process of lib/platform/config-variables.ts, or the embedder (the worker's process). */
type Component = ProcessRole | 'embedder';
const componentOf = (manifest: Manifest) => manifest.metadata.labels?.['app.kubernetes.io/component'] as Component;
const processOf = (component: Component): ProcessRole => (component === 'embedder' ? 'worker' : component);
const containerOf = (deployment: Manifest) => deployment.spec.template.spec.containers[0];
const envOf = (deployment: Manifest) => new Map<string, any>(containerOf(deployment).env.map((e: any) => [e.name, e]));

for (const rendering of Object.keys(renderings) as Rendering[]) {
  test(`${rendering} values: every manifest decodes strictly into its Kubernetes type`, async (t) => {
    const verdict = await check(rendered.get(rendering)!);
    t.is(verdict.code, 0, verdict.output);
    t.regex(verdict.output, /^\d+ manifests decoded strictly$/m);

    const kinds = manifestsOf(rendering).map((m) => `${m.apiVersion} ${m.kind}`);
    for (const kind of ['apps/v1 Deployment', 'v1 Service', 'policy/v1 PodDisruptionBudget']) {
      t.is(kinds.filter((k) => k === kind).length, components[rendering].length, kind);
    }
    t.is(kinds.filter((k) => k === 'autoscaling/v2 HorizontalPodAutoscaler').length, autoscaled[rendering]);
    t.is(kinds.includes('networking.k8s.io/v1 Ingress'), rendering === 'production');
    t.is(kinds.includes('v1 Secret'), rendering !== 'production', 'a Secret only when none is named');
  });

  test(`${rendering} values: each Deployment is probed, bounded, unprivileged and has its Service, HPA and PDB`, (t) => {
    const manifests = manifestsOf(rendering);
    const compose = parse(readFileSync(join(chartDir, '..', '..', 'compose.yaml'), 'utf8')) as {
      services: Record<string, { command: string[] }>;
    };
    const deployments = manifests.filter((m) => m.kind === 'Deployment');
    t.deepEqual(deployments.map(componentOf).sort(), components[rendering]);

    for (const deployment of deployments) {
      const component = componentOf(deployment);
      const process = processOf(component);
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      const env = envOf(deployment);
      const named = (message: string) => `${component}: ${message}`;

      t.deepEqual(container.command, compose.services[process]!.command, named('the process compose.yaml runs'));
      const [port] = container.ports;
      const portVariable = { api: 'PORT', worker: 'HEALTH_PORT', cdn: 'CDN_PORT' }[process];
      t.is(String(port.containerPort), env.get(portVariable)?.value, named(`the container port is ${portVariable}`));
      const paths = process === 'cdn' ? { ready: '/health', live: '/health' } : { ready: '/ready', live: '/live' };
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
      const processMs = { api: apiStopDeadlineMs(graceMs), worker: workerStopDeadlineMs(graceMs), cdn: 0 }[processOf(component)];
      const neededSeconds = preStopSeconds + processMs / 1000;
      t.true(component === 'cdn' || graceMs > 0, `${component}: SHUTDOWN_GRACE_SECONDS is set`);
      t.true(
        pod.terminationGracePeriodSeconds > neededSeconds && pod.terminationGracePeriodSeconds <= neededSeconds + 10,
        `${component}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} for ${neededSeconds} s of shutdown`,
      );
    }
  });

  test(`${rendering} values: the API and the workers serve their metrics on ports Prometheus can reach`, (t) => {
    for (const deployment of manifestsOf(rendering).filter((m) => m.kind === 'Deployment')) {
      const component = componentOf(deployment);
      const process = processOf(component);
      const [container] = deployment.spec.template.spec.containers;
      const env = new Map<string, string>(container.env.map((e: any) => [e.name, e.value]));
      const ports = new Map<string, number>(container.ports.map((p: any) => [p.name, p.containerPort]));
      if (process === 'cdn') {
        t.false(ports.has('metrics'), 'the widget files have no metrics');
        continue;
      }
      t.is(env.get('METRICS_HOST'), '0.0.0.0', `${component}: metrics listen beyond the pod's loopback`);
      const own = process === 'api' ? 'METRICS_PORT' : 'WORKER_METRICS_PORT';
      t.is(env.get(own), String(ports.get('metrics')), `${component}: the metrics port is ${own}`);
      t.is(deployment.spec.template.metadata.annotations['prometheus.io/port'], env.get(own));
      if (process === 'worker') {
        t.is(env.get('TEMPORAL_METRICS_PORT'), String(ports.get('temporal-metrics')), `${component}: the SDK's metrics`);
      }
    }
  });

  test(`${rendering} values: each process gets what production needs, and its secrets from the Secret only`, (t) => {
    const manifests = manifestsOf(rendering);
    const configMap = manifests.find((m) => m.kind === 'ConfigMap')!;
    for (const [name, value] of Object.entries(configMap.data ?? {})) {
      t.truthy(specs[name], `config.${name} is a variable of lib/platform/config-variables.ts`);
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
        if (!spec.usedBy.includes(processOf(component))) continue;
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
      if (rendering !== 'production') {
        for (const name of set.keys())
          t.truthy(specs[name], `${component}: ${name} is a variable of lib/platform/config-variables.ts`);
      }
    }
  });
}

/** The chart's values for the embedder, with a rendering's values file over them. */
function embedderValues(rendering: Rendering): { autoscaling: Record<string, number>; config: Record<string, string> } {
  const read = (file: string) => (parse(readFileSync(file, 'utf8')) as { embedder?: any }).embedder ?? {};
  const chart = read(join(chartDir, 'values.yaml'));
  const given = rendering === 'production' ? read(productionValues) : {};
  return {
    autoscaling: { ...chart.autoscaling, ...given.autoscaling },
    config: { ...chart.config, ...given.config },
  };
}

const workerDeployments = (manifests: Manifest[]) =>
  manifests.filter((m) => m.kind === 'Deployment' && containerOf(m).command.join(' ') === 'node dist/worker/main.js');

for (const rendering of ['embedder', 'production'] as const) {
  test(`${rendering} values: the embedders run the items' activities, the workers the rest, each on its own HPA`, (t) => {
    const manifests = manifestsOf(rendering);
    const deployments = new Map(workerDeployments(manifests).map((d) => [componentOf(d), d]));
    t.deepEqual([...deployments.keys()].sort(), ['embedder', 'worker'], 'two Deployments of the worker process');
    const worker = deployments.get('worker')!;
    const embedder = deployments.get('embedder')!;
    t.is(envOf(worker).get('WORKER_ROLE')?.value, 'core');
    t.is(envOf(embedder).get('WORKER_ROLE')?.value, 'embedder');
    t.is(containerOf(embedder).image, containerOf(worker).image, 'the same image');
    t.is(containerOf(embedder).ports[0].containerPort, containerOf(worker).ports[0].containerPort, "the worker's health port");

    const autoscalerOf = (deployment: Manifest) =>
      manifests.find((m) => m.kind === 'HorizontalPodAutoscaler' && m.spec.scaleTargetRef.name === deployment.metadata.name);
    const own = autoscalerOf(embedder);
    t.truthy(own, 'the embedders have an HPA');
    t.truthy(autoscalerOf(worker), 'the workers have theirs');
    t.not(own?.metadata.name, autoscalerOf(worker)?.metadata.name);
    const { autoscaling, config } = embedderValues(rendering);
    t.like(own?.spec, { minReplicas: autoscaling.minReplicas, maxReplicas: autoscaling.maxReplicas });
    t.deepEqual(own?.spec.metrics, [
      {
        type: 'Resource',
        resource: {
          name: 'cpu',
          target: { type: 'Utilization', averageUtilization: autoscaling.targetCPUUtilizationPercentage },
        },
      },
    ]);

    // embedder.config: the embedders' own settings, over the ConfigMap's; the workers keep the ConfigMap's.
    t.true(Object.keys(config).length > 0);
    for (const [name, value] of Object.entries(config)) {
      t.true(specs[name]?.usedBy.includes('worker') ?? false, `embedder.config.${name} is a worker's variable`);
      t.falsy(specs[name]?.secret, `embedder.config.${name} is not a secret`);
      t.is(envOf(embedder).get(name)?.value, String(value), `the embedders are given ${name}`);
      t.false(envOf(worker).has(name), `the workers take ${name} from the ConfigMap`);
    }
  });
}

test('default values: no embedder, and the one worker Deployment runs every role', (t) => {
  const manifests = manifestsOf('default');
  t.deepEqual(
    manifests.filter((m) => componentOf(m) === 'embedder' || m.metadata.name.endsWith('-embedder')).map((m) => m.kind),
    [],
  );
  const workers = workerDeployments(manifests);
  t.deepEqual(workers.map(componentOf), ['worker']);
  t.is(envOf(workers[0]!).get('WORKER_ROLE')?.value ?? 'all', 'all');
  t.notRegex(rendered.get('default')!, /WORKER_ROLE[\s\S]{0,40}value: "?(core|embedder)/);
});

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

  const role = await helmTemplate(['--set', 'embedder.enabled=true', '--set', 'embedder.config.WORKER_ROLE=all']).then(
    () => undefined,
    (failure: { stderr: string }) => failure.stderr,
  );
  t.regex(role ?? '', /embedder\.config\.WORKER_ROLE is set by the chart/);
});
