import test from 'ava';
import { startTestApi } from '#testing/api.js';
import { startTestWorker } from '#testing/worker.js';
import { runCampaign } from './campaign.js';
import { createKnownValues } from './known-values.js';

// The smoke of `npm run fuzz`: a few hundred hostile requests across every documented route of the
// real API and worker, each answered as documented and none with a 5xx.
test('hostile requests across every route are refused or answered as documented, never with a 5xx', async (t) => {
  const api = await startTestApi();
  const worker = await startTestWorker(api.config);
  t.teardown(async () => {
    await worker.stop();
    await api.close();
  });
  const known = await createKnownValues(api.url, api.adminToken);
  const result = await runCampaign({ apiUrl: api.url, known, seed: 20261126, count: 400, concurrency: 4 });
  t.is(result.sent, 400);
  t.deepEqual(result.failures, []);
  // The run reached code behind authentication, not only the refusals in front of it.
  t.true(
    Object.keys(result.byStatus).some((status) => status.startsWith('2')),
    JSON.stringify(result.byStatus),
  );
  t.true((result.byStatus['400'] ?? 0) > 0, JSON.stringify(result.byStatus));
});
