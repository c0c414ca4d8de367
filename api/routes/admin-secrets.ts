import type { Middleware } from 'koa';
import type { ResealReport } from '#platform/sealed-fields.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { resealResponse } from '../schemas/admin.js';

/** A store of records with sealed secrets: the messaging connections, the connectors, the event endpoints. */
export interface SealedStore {
  kind: 'messaging-connection' | 'connector' | 'operator-identity' | 'event-endpoint';
  resealAll(): Promise<ResealReport>;
}

/**
 * Retiring an encryption key: every sealed secret is opened and sealed again with the current key, so
 * a key can leave `SECRETS_PREVIOUS_KEYS` even for records nobody has read since it changed.
 */
export function createAdminSecretsRouter({ requireAdmin, stores }: { requireAdmin: Middleware; stores: SealedStore[] }) {
  const router = new DocumentedRouter({ tags: ['Administration'], security: 'admin', errors: [401, 429, 503] });
  router.use(requireAdmin);

  router.post(
    '/admin/secrets/reseal',
    {
      summary: 'Seal every stored secret again with the current key',
      description:
        'Opens every record holding sealed secrets and seals again what an earlier key sealed. When `unopened` is empty, ' +
        'the keys in `SECRETS_PREVIOUS_KEYS` can be removed. Safe to repeat. No body.',
      responses: { 200: { description: 'What was opened, and what could not be', schema: resealResponse } },
    },
    async (ctx) => {
      let records = 0;
      const unopened: Array<{ kind: SealedStore['kind']; id: string; reason: string }> = [];
      for (const store of stores) {
        const report = await store.resealAll();
        records += report.records;
        unopened.push(...report.unopened.map((record) => ({ kind: store.kind, ...record })));
      }
      ctx.body = { records, unopened };
    },
  );

  return router;
}
