import { cachedDependencyChecks, type DependencyChecks, type DependencyStatus } from '#platform/dependency-health.js';
import { dependencyLabels } from '#platform/dependency-errors.js';
import type { Logger } from '#platform/logger.js';
import { AppError } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';

const statusSchema = (properties: object) => ({ type: 'object', required: ['status'], properties });

/**
 * `/live` answers while the process runs; `/ready` and `/health` answer 200 only when Temporal,
 * Weaviate and Redis all answer, and otherwise 503 `unavailable` naming each one that does not.
 * These routes are public: they say whether each dependency is up, nothing more (why one is down,
 * with its internal address, goes to the log). The probes' result is shared for a second, so
 * polling them costs the dependencies one probe a second at most.
 */
export function createHealthRouter({ checks, version, logger }: { checks: DependencyChecks; version: string; logger: Logger }) {
  const router = new DocumentedRouter({ tags: ['Health'], security: 'none', errors: [] });
  const started = Date.now();
  const probe = cachedDependencyChecks(checks);
  let reported: DependencyStatus[] | undefined;

  async function requireAllUp(): Promise<DependencyStatus[]> {
    const statuses = await probe();
    const down = statuses.filter((s) => !s.up);
    if (down.length > 0 && statuses !== reported) {
      // Once per round of probes, however many callers shared it.
      reported = statuses;
      logger.warn({ dependencies: down }, 'a dependency is down');
    }
    if (down.length > 0) {
      const names = down.map((s) => dependencyLabels[s.name]);
      throw new AppError(
        503,
        'unavailable',
        `${names.join(' and ')} ${down.length === 1 ? 'is' : 'are'} unavailable.`,
        statuses.map((s) => ({
          dependency: s.name,
          status: s.up ? 'up' : 'down',
          message: s.up ? 'answering' : 'not answering',
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
      summary: 'Each dependency, up or not',
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
        dependencies: Object.fromEntries(statuses.map((s) => [s.name, { status: 'up' }])),
      };
    },
  );

  return router;
}
