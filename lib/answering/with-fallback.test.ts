import test from 'ava';
import { generatorSettings, recordingSink, withFakeChatServer } from '#testing/answer-generator.js';
import type { FakeChatServer } from '#testing/fake-chat-server.js';
import { createOpenAIGenerator } from './llm/openai-generator.js';
import type { AnswerGenerator, AnswerInput, ComposedAnswer } from './types.js';
import { withFallback } from './with-fallback.js';

const input: AnswerInput = {
  question: 'How do I reset my password?',
  locale: 'en',
  sources: [
    {
      n: 1,
      sourceKey: 'int-1:doc-1',
      externalId: 'doc-1',
      integrationId: 'int-1',
      sourceType: 'article',
      title: 'Resetting your password',
      url: 'https://help.example.com/reset',
      text: 'Open the sign-in page and choose "Forgot password".',
      score: 0.9,
      similarity: 0.6,
    },
  ],
};

/** Stands in for the extractive generator: quotes the best passage, in two tokens. */
const fallback: AnswerGenerator = {
  name: 'extractive',
  async generate({ sources }, sink) {
    const best = sources[0]!;
    const text = `${best.text} [1]`;
    sink.token(best.text);
    sink.token(' [1]');
    const { n, title, url, externalId, sourceType } = best;
    return { outcome: 'answered', text, citations: [{ n, title, url, externalId, sourceType }] };
  },
};
const fallbackText = 'Open the sign-in page and choose "Forgot password". [1]';

function recordingLogger() {
  const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
  return { warnings, warn: (obj: object, msg: string) => void warnings.push({ obj: obj as Record<string, unknown>, msg }) };
}

/** Runs `run` with a fake chat server and a generator for it that uses `apiKey` (the right one by default). */
function withServer(run: (server: FakeChatServer, primary: AnswerGenerator) => Promise<void>, apiKey?: string): Promise<void> {
  return withFakeChatServer((server) => run(server, createOpenAIGenerator(generatorSettings(server, apiKey ? { apiKey } : {}))));
}

test('the primary answers when it can, and the answer names it', (t) =>
  withServer(async (server, primary) => {
    const logger = recordingLogger();
    const generator = withFallback(primary, fallback, logger);
    t.is(generator.name, 'openai:gpt-4o-mini');

    const sink = recordingSink();
    const answer = await generator.generate(input, sink);
    t.is(answer.generator, 'openai:gpt-4o-mini');
    t.is(answer.outcome, 'answered');
    t.is(sink.text(), answer.text);
    t.false(sink.events.includes('<reset>'));
    t.deepEqual(logger.warnings, []);
    t.is(server.calls.length, 1);
  }));

test('a server error on every try falls back, with a warning and nothing to reset', (t) =>
  withServer(async (server, primary) => {
    server.failNext(3, 500, { retryAfterMs: 1 });
    const logger = recordingLogger();
    const sink = recordingSink();
    const answer = await withFallback(primary, fallback, logger).generate(input, sink);

    t.is(answer.generator, 'extractive');
    t.is(answer.text, fallbackText);
    t.deepEqual(sink.events, ['Open the sign-in page and choose "Forgot password".', ' [1]']);
    t.is(server.calls.length, 3);
    t.is(logger.warnings.length, 1);
    const [{ obj, msg }] = logger.warnings as [(typeof logger.warnings)[0]];
    t.is(msg, 'Answer generator openai:gpt-4o-mini failed; answering with extractive instead');
    t.like(obj, { generator: 'openai:gpt-4o-mini', fallback: 'extractive', tokensVoided: false });
    t.regex(String(obj.error), /answered HTTP 500 for model "gpt-4o-mini" \(3 attempts\)/);
  }));

test('a reply cut mid-stream is reset and replaced by the fallback', (t) =>
  withServer(async (server, primary) => {
    server.respondWith('One two three four five.');
    server.failMidStreamNext(1);
    const logger = recordingLogger();
    const sink = recordingSink();
    const answer = await withFallback(primary, fallback, logger).generate(input, sink);

    t.is(answer.generator, 'extractive');
    t.deepEqual(sink.events, ['One', ' two', ' three', '<reset>', 'Open the sign-in page and choose "Forgot password".', ' [1]']);
    t.is(sink.text(), answer.text);
    t.like(logger.warnings[0]?.obj, { generator: 'openai:gpt-4o-mini', tokensVoided: true });
    t.regex(String(logger.warnings[0]?.obj.error), /broke off the reply/);
  }));

test('a wrong key falls back, and the warning does not quote the key', (t) => {
  const wrongKey = 'sk-wrong-9876543210zyxwvutsrqponm';
  return withServer(async (_server, primary) => {
    const logger = recordingLogger();
    const answer = await withFallback(primary, fallback, logger).generate(input, recordingSink());
    t.is(answer.generator, 'extractive');
    const logged = JSON.stringify(logger.warnings);
    t.regex(logged, /refused the API key/);
    for (const part of [wrongKey, wrongKey.slice(0, 3), wrongKey.slice(-4)]) t.false(logged.includes(part), part);
  }, wrongKey);
});

/** A generator that sends `sent`, then fails; with `late`, it sends that after failing too. */
function failingGenerator(sent: string[], late?: string): AnswerGenerator {
  return {
    name: 'flaky',
    async generate(_input, sink) {
      for (const token of sent) sink.token(token);
      if (late !== undefined) setImmediate(() => sink.token(late));
      throw new Error('flaky broke');
    },
  };
}

test('tokens a failed primary sends afterwards never reach the sink', async (t) => {
  const sink = recordingSink();
  const answer = await withFallback(failingGenerator(['Half'], ' late'), fallback, recordingLogger()).generate(input, sink);
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(sink.events, ['Half', '<reset>', 'Open the sign-in page and choose "Forgot password".', ' [1]']);
  t.is(answer.text, fallbackText);
});

test('a primary that reset its own tokens before failing needs no second reset', async (t) => {
  const resetsThenFails: AnswerGenerator = {
    name: 'resetting',
    async generate(_input, sink) {
      sink.token('draft');
      sink.reset();
      throw new Error('gave up');
    },
  };
  const sink = recordingSink();
  await withFallback(resetsThenFails, fallback, recordingLogger()).generate(input, sink);
  t.deepEqual(sink.events, ['draft', '<reset>', 'Open the sign-in page and choose "Forgot password".', ' [1]']);
});

test('a failing fallback fails the answer with its own error', async (t) => {
  const broken: AnswerGenerator = {
    name: 'broken',
    generate: () => Promise.reject(new Error('fallback broke too')),
  };
  await t.throwsAsync(withFallback(failingGenerator([]), broken, recordingLogger()).generate(input, recordingSink()), {
    message: 'fallback broke too',
  });
});

test('nested fallbacks name the generator that actually answered', async (t) => {
  const logger = recordingLogger();
  const chain = withFallback(withFallback(failingGenerator([]), fallback, logger), failingGenerator([]), logger);
  t.is(chain.name, 'flaky');
  const answer: ComposedAnswer & { generator: string } = await chain.generate(input, recordingSink());
  t.is(answer.generator, 'extractive');
  t.is(logger.warnings.length, 1);
});
