import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import test from 'ava';
import { startTracing, type Tracing } from '#platform/tracing/tracing.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, waitForJobs, type IngestionStack } from '#testing/ingestion.js';
import { shopItems } from '#testing/shop-content.js';

/*
 * One chat message traced from the API request through the Temporal client, the conversation
 * workflow and the activity that answers it, to its Redis and Weaviate calls: the real API and
 * worker (in this process, sharing one tracing with an in-memory exporter), Temporal, Weaviate and Redis.
 */

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let stack: IngestionStack;

test.before(async () => {
  tracing = startTracing({ serviceName: 'kb-test', exporter })!;
  stack = await startIngestionStack({}, { telemetry: { api: { tracing }, worker: { tracing } } });
});
test.after.always(async () => {
  await stack?.close();
  await tracing?.shutdown();
});

/** The span's ancestors, nearest first, as far as the exported spans go. */
function ancestorsOf(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const chain: ReadableSpan[] = [];
  for (let parent = byId.get(span.parentSpanId ?? ''); parent; parent = byId.get(parent.parentSpanId ?? '')) chain.push(parent);
  return chain;
}

test('a chat message is one trace: API request, Temporal client, workflow, activity, Redis and Weaviate', async (t) => {
  const { chat, headers } = await chattingTenant(stack.api);
  const ingested = await stack.api.request('POST', '/ingest/bulk', { body: { items: [shopItems.returns] }, headers });
  await waitForJobs(stack.api, headers, ingested.body.jobIds);
  const visitor = await chat.start();

  const requestId = `trace-test-${Date.now()}`;
  const answer = await chat.ask(
    { ...visitor, headers: { ...visitor.headers, 'x-request-id': requestId } },
    'How many days do I have to return an item?',
  );
  t.like(answer.reply, { author: 'ai', outcome: 'answered' });

  const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
  const spans = await eventually(
    async () => exporter.getFinishedSpans(),
    (finished) =>
      finished.some(
        (span) =>
          span.name === 'RunActivity:answerVisitorMessage' &&
          ancestorsOf(span, finished).some((a) => a.attributes['kb.request_id'] === requestId),
      ),
    { timeoutMs: 30_000 },
  );

  const [request] = spans.filter((span) => span.attributes['kb.request_id'] === requestId);
  t.truthy(request, 'the request has a server span with its request id');
  t.is(request!.name, 'POST /chat/conversations/{conversationId}/messages');
  t.is(request!.attributes['http.route'], '/chat/conversations/{conversationId}/messages');
  const traceId = request!.spanContext().traceId;

  const run = named(spans, 'RunActivity:answerVisitorMessage').find((span) => span.spanContext().traceId === traceId);
  t.truthy(run, 'the answering activity is in the request trace');
  const chain = ancestorsOf(run!, spans).map((span) => span.name);
  t.deepEqual(chain, [
    'StartActivity:answerVisitorMessage',
    'HandleSignal:visitorMessage',
    'SignalWorkflow:visitorMessage',
    'POST /chat/conversations/{conversationId}/messages',
  ]);

  // The activity's own calls are its children, named by command or method only.
  const calls = spans.filter((span) => span.spanContext().traceId === traceId && ancestorsOf(span, spans).includes(run!));
  const redis = calls.filter((span) => span.attributes['db.system'] === 'redis');
  const weaviate = calls.filter((span) => span.attributes['db.system'] === 'weaviate');
  t.true(redis.length > 0, 'Redis calls are traced');
  t.true(
    weaviate.some((span) => span.name === 'weaviate.hybridSearch'),
    calls.map((span) => span.name).join(', '),
  );
  for (const span of [...redis, ...weaviate]) {
    t.deepEqual(
      Object.keys(span.attributes).sort(),
      ['db.operation.name', 'db.system'],
      `${span.name} carries no keys or values`,
    );
  }
});
