import { checkDependencies, type DependencyChecks, type DependencyStatus } from '#platform/dependency-health.js';
import { dependencyLabels } from '#platform/dependency-errors.js';
import { AppError } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';

const statusSchema = (properties: object) => ({ type: 'object', required: ['status'], properties });

/**
 * `/live` answers while the process runs; `/ready` and `/health` answer 200 only when Temporal,
 * Weaviate and Redis all answer, and otherwise 503 `unavailable` naming each one that does not.
 */
export function createHealthRouter({ checks, version }: { checks: DependencyChecks; version: string }) {
  const router = new DocumentedRouter({ tags: ['Health'], security: 'none', errors: [] });
  const started = Date.now();

  async function requireAllUp(): Promise<DependencyStatus[]> {
    const statuses = await checkDependencies(checks);
    const down = statuses.filter((s) => !s.up);
    if (down.length > 0) {
      const names = down.map((s) => dependencyLabels[s.name]);
      throw new AppError(
        503,
        'unavailable',
        `${names.join(' and ')} ${down.length === 1 ? 'is' : 'are'} unavailable.`,
        statuses.map((s) => ({
          dependency: s.name,
          status: s.up ? 'up' : 'down',
          message: s.error ?? 'answering',
          latencyMs: s.latencyMs,
        })),
      );
    }
    return statuses;
  }

  router.get(
    '/live',
    {
      summary: 'Liveness: the process runs',
      responses: { 200: { description: 'Alive', schema: statusSchema({ status: { const: 'live' } }) } },
    },
    (ctx) => {
      ctx.body = { status: 'live' };
    },
  );

  router.get(
    '/ready',
    {
      summary: 'Readiness: every dependency answers',
      responses: { 200: { description: 'Ready', schema: statusSchema({ status: { const: 'ready' } }) } },
      errors: [503],
    },
    async (ctx) => {
      await requireAllUp();
      ctx.body = { status: 'ready' };
    },
  );

  router.get(
    '/health',
    {
      summary: 'Each dependency with its latency',
      responses: {
        200: {
          description: 'Healthy',
          schema: statusSchema({
            status: { const: 'ok' },
            version: { type: 'string' },
            uptimeSeconds: { type: 'integer' },
            dependencies: { type: 'object' },
          }),
        },
      },
      errors: [503],
    },
    async (ctx) => {
      const statuses = await requireAllUp();
      ctx.body = {
        status: 'ok',
        version,
        uptimeSeconds: Math.floor((Date.now() - started) / 1000),
        dependencies: Object.fromEntries(statuses.map((s) => [s.name, { status: 'up', latencyMs: s.latencyMs }])),
      };
    },
  );

  return router;
}
