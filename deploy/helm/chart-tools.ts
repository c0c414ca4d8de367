import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureGoProgram, ensureGoTool } from '../local/go-tools.js';

/** The chart, and the Go program that checks what it renders. */
export const chartDir = fileURLToPath(new URL('./kb-assistant', import.meta.url));
const checkerDir = fileURLToPath(new URL('./checker', import.meta.url));

/**
 * `helm` (pinned in deploy/versions.json) and the manifest checker, each built once per machine into
 * the tool cache; `npm test` builds them before the tests run, with progress printed.
 */
export async function ensureChartTools(): Promise<{ helm: string; checker: string }> {
  const helm = await ensureGoTool('helm');
  const checker = await ensureGoProgram(checkerDir, 'manifest-checker');
  return { helm, checker };
}

/**
 * The Kubernetes version whose API types the checker decodes into (its k8s.io/api v0.X.Y is
 * Kubernetes 1.X.Y): the version the chart is rendered for.
 */
export function checkedKubernetesVersion(): string {
  const goMod = readFileSync(new URL('./checker/go.mod', import.meta.url), 'utf8');
  const match = /^\s*k8s\.io\/api v0\.(\d+)\.(\d+)\s*$/m.exec(goMod);
  if (!match) throw new Error('deploy/helm/checker/go.mod pins no k8s.io/api v0.X.Y');
  return `1.${match[1]}.${match[2]}`;
}
