import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createIngestionClient } from './ingestion-client.js';
import { createJobStore, type JobStatus } from './jobs.js';

const testRedis = useTestRedis(test);

/** Temporal at the module's boundary: a client whose signal-with-start fails while `away`. */
function temporalThat(state: { away: boolean }) {
  const workflow = {
    signalWithStart: async () => {
      if (state.away) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:7233'), { code: 14 });
      return {};
    },
  };
  return { workflow } as unknown as Client;
}

test('a version is counted queued once Temporal has it; an accept Temporal refused is put back and never counted', async (t) => {
  const counted: JobStatus[] = [];
  const jobs = createJobStore(testRedis.redis(), testRedis.prefix, { observer: { changed: (status) => counted.push(status) } });
  const temporal = { away: true };
  const ingestion = createIngestionClient(temporalThat(temporal), 'queue', jobs);
  const tenantId = randomUUID();
  const item = { integrationId: 'site', externalId: 'page-1', sourceType: 'article', data: { title: 'A', body: 'B' } };

  await t.throwsAsync(ingestion.acceptOne(tenantId, 'kb', item as never, 'interactive'));
  t.deepEqual(counted, []);
  t.is(await jobs.get(tenantId, 'site-page-1'), undefined, 'the job was put back as it was: not there');

  temporal.away = false;
  t.is(await ingestion.acceptOne(tenantId, 'kb', item as never, 'interactive'), 'site-page-1');
  t.deepEqual(counted, ['queued']);
  t.is((await jobs.get(tenantId, 'site-page-1'))?.status, 'queued');
});
