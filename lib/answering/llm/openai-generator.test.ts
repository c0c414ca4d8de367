import test from 'ava';
import {
  fakeChatApiKey as apiKey,
  fakeChatModel as model,
  generatorSettings as settings,
  recordingSink,
  withFakeChatServer as withServer,
} from '#testing/answer-generator.js';
import { startFakeChatServer } from '#testing/fake-chat-server.js';
import { stringsFor } from '../locales.js';
import { AnswerGenerationError, createOpenAIGenerator, defaultAnswerMaxTokens, noAnswerSentinel } from './openai-generator.js';
import type { AnswerInput, RetrievedSource } from '../types.js';

function source(n: number, title: string, text: string, url: string | null = `https://help.example.com/${n}`): RetrievedSource {
  return {
    n,
    sourceKey: `int-1:doc-${n}`,
    externalId: `doc-${n}`,
    integrationId: 'int-1',
    sourceType: 'article',
    title,
    url,
    text,
    score: 1 / n,
    similarity: 0.6,
  };
}

const input: AnswerInput = {
  question: 'How do I reset my password?',
  locale: 'en',
  sources: [
    source(
      1,
      'Resetting your password',
      'Open the sign-in page and choose "Forgot password".\n\nThe link in the email works for one hour.',
    ),
    source(2, 'Account security', 'Two-factor authentication can be turned on in the settings.', null),
    source(3, 'Billing', 'Invoices are sent monthly.'),
  ],
};

test('streams the reply token by token, and the tokens make up the returned text', (t) =>
  withServer(async (server) => {
    const reply = 'Open the sign-in page and choose **Forgot password** [1]. The link works for one hour [1].';
    server.respondWith(reply);
    // The server holds the rest of the reply until the first token reached the sink: a generator
    // that waited for the whole reply would see no token while held (the timer then lets it finish).
    const release = server.holdMidStreamNext();
    const safety = setTimeout(release, 5_000);
    let arrivedWhileHeld = 0;
    let held = true;
    const generator = createOpenAIGenerator(settings(server));
    t.is(generator.name, 'openai:gpt-4o-mini');

    const sink = recordingSink();
    const answer = await generator.generate(input, {
      token: (delta) => {
        if (held) arrivedWhileHeld += 1;
        held = false;
        release();
        sink.token(delta);
      },
      reset: sink.reset,
    });
    clearTimeout(safety);

    t.is(answer.outcome, 'answered');
    t.is(answer.text, reply);
    t.is(sink.events.join(''), reply);
    t.false(sink.events.includes('<reset>'));
    t.true(sink.events.length > 10, 'sent in many tokens, not at once');
    t.is(arrivedWhileHeld, 1, 'the first tokens went out before the rest of the reply was sent');
    t.deepEqual(answer.citations, [
      { n: 1, title: 'Resetting your password', url: 'https://help.example.com/1', externalId: 'doc-1', sourceType: 'article' },
    ]);
  }));

test('the request carries the model, the rules and the numbered passages, streamed', (t) =>
  withServer(async (server) => {
    await createOpenAIGenerator(settings(server)).generate(input, recordingSink());
    const [call] = server.calls;
    // Every answer's cost is bounded, by default too.
    t.like(call, { model, stream: true, temperature: undefined, maxTokens: defaultAnswerMaxTokens, status: 200 });
    t.deepEqual(
      call!.messages.map((message) => message.role),
      ['system', 'user'],
    );
    const [system, user] = call!.messages.map((message) => message.content);
    t.regex(system!, /using only the numbered passages/);
    t.regex(system!, /Add nothing from your own knowledge/);
    t.regex(system!, /square brackets, such as \[1\]/);
    t.regex(system!, /a few sentences/);
    t.regex(system!, /No headings, no tables/);
    t.regex(system!, /Write in English/);
    t.true(system!.includes(`reply with exactly ${noAnswerSentinel} and nothing else`));
    t.is(
      user,
      'Passages:\n\n' +
        '[1] Resetting your password (https://help.example.com/1)\n' +
        'Open the sign-in page and choose "Forgot password".\n\nThe link in the email works for one hour.\n\n' +
        '[2] Account security\nTwo-factor authentication can be turned on in the settings.\n\n' +
        '[3] Billing (https://help.example.com/3)\nInvoices are sent monthly.\n\n' +
        'Question: How do I reset my password?',
    );

    await createOpenAIGenerator(settings(server, { temperature: 0.2, maxTokens: 300 })).generate(
      { ...input, locale: 'de' },
      recordingSink(),
    );
    t.is(server.calls[1]!.temperature, 0.2);
    t.is(server.calls[1]!.maxTokens, 300);
    t.regex(server.calls[1]!.messages[0]!.content, /Write in German/);
  }));

for (const [title, reply, voided] of [
  ['the bare sentinel', noAnswerSentinel, false],
  ['the sentinel with whitespace and a full stop', `\n ${noAnswerSentinel}.\n`, false],
  ['the sentinel in bold', `**${noAnswerSentinel}**`, true],
] as const) {
  test(`${title} is an unknown answer in the locale's words, and the sentinel never reaches the sink`, (t) =>
    withServer(async (server) => {
      server.respondWith(reply);
      for (const locale of ['en', 'de'] as const) {
        const sink = recordingSink();
        const answer = await createOpenAIGenerator(settings(server)).generate({ ...input, locale }, sink);
        const strings = stringsFor(locale);
        t.deepEqual(answer, { outcome: 'unknown', text: `${strings.dontKnow} ${strings.offerHuman}`, citations: [] });
        t.is(sink.text(), answer.text);
        t.false(sink.events.join('').includes('NO'), sink.events.join('|'));
        t.is(sink.events.includes('<reset>'), voided, 'only markdown sent before the sentinel is voided');
      }
    }));
}

test('a sentinel after some text voids what was sent and answers unknown', (t) =>
  withServer(async (server) => {
    server.respondWith(`The passages do not mention passwords. ${noAnswerSentinel}`);
    const sink = recordingSink();
    const answer = await createOpenAIGenerator(settings(server)).generate(input, sink);
    t.is(answer.outcome, 'unknown');
    t.is(sink.events.indexOf('<reset>'), sink.events.length - 2);
    t.true(sink.events.slice(0, -2).join('').startsWith('The passages do not mention passwords'));
    t.false(sink.events.join('').includes('NO_'));
    t.is(sink.text(), answer.text);
  }));

test('text that only starts like the sentinel is answered as it is', (t) =>
  withServer(async (server) => {
    server.respondWith('NO fees apply [3]. The NO_ANS code is unrelated [1]. Ends in NO_');
    const sink = recordingSink();
    const answer = await createOpenAIGenerator(settings(server)).generate(input, sink);
    t.is(answer.outcome, 'answered');
    t.is(answer.text, 'NO fees apply [3]. The NO_ANS code is unrelated [1]. Ends in NO_');
    t.is(sink.text(), answer.text);
  }));

test('markers that name no given source are dropped before they are streamed; the rest are the citations', (t) =>
  withServer(async (server) => {
    server.respondWith('  Use the sign-in page [1][7]. Turn on two-factor [2, 9] and [4].\n\nSee [3,1] too.\n');
    const sink = recordingSink();
    const answer = await createOpenAIGenerator(settings(server)).generate(input, sink);
    t.is(answer.text, 'Use the sign-in page [1]. Turn on two-factor [2] and.\n\nSee [3][1] too.');
    t.is(sink.events.join(''), answer.text, 'whitespace at either end is not sent');
    t.deepEqual(
      answer.citations.map((citation) => [citation.n, citation.url]),
      [
        [1, 'https://help.example.com/1'],
        [2, null],
        [3, 'https://help.example.com/3'],
      ],
    );
  }));

test('an answer that cites nothing cites the best source, and links are left alone', (t) =>
  withServer(async (server) => {
    server.respondWith('Use the [sign-in page](https://example.com/sign-in).');
    const answer = await createOpenAIGenerator(settings(server)).generate(input, recordingSink());
    t.is(answer.text, 'Use the [sign-in page](https://example.com/sign-in).');
    t.deepEqual(
      answer.citations.map((citation) => citation.n),
      [1],
    );
  }));

test('a rate limit is retried by the client', (t) =>
  withServer(async (server) => {
    server.failNext(1, 429, { retryAfterMs: 1 });
    const sink = recordingSink();
    const answer = await createOpenAIGenerator(settings(server)).generate(input, sink);
    t.is(answer.outcome, 'answered');
    t.is(sink.text(), answer.text);
    t.deepEqual(
      server.calls.map((call) => call.status),
      [429, 200],
    );
  }));

test('server errors beyond the retries fail with the provider, the status and the attempts', (t) =>
  withServer(async (server) => {
    server.failNext(3, 503, { retryAfterMs: 1 });
    const sink = recordingSink();
    const error = await t.throwsAsync(createOpenAIGenerator(settings(server)).generate(input, sink), {
      instanceOf: AnswerGenerationError,
    });
    t.regex(
      error!.message,
      /^The chat provider at http:\/\/127\.0\.0\.1:\d+\/v1 answered HTTP 503 for model "gpt-4o-mini" \(3 attempts\): The engine is currently overloaded/,
    );
    t.is((error as AnswerGenerationError).status, 503);
    t.is(server.calls.length, 3);
    t.deepEqual(sink.events, []);
  }));

test('a wrong key fails at once with a clear error that does not quote the key', (t) =>
  withServer(async (server) => {
    const wrongKey = 'sk-wrong-9876543210zyxwvutsrqponm';
    const error = await t.throwsAsync(
      createOpenAIGenerator(settings(server, { apiKey: wrongKey })).generate(input, recordingSink()),
      {
        instanceOf: AnswerGenerationError,
      },
    );
    t.regex(error!.message, /refused the API key for model "gpt-4o-mini" \(HTTP 401\)\. Check the configured chat API key/);
    for (const part of [wrongKey, wrongKey.slice(0, 3), wrongKey.slice(-4)]) t.false(error!.message.includes(part), part);
    t.false(JSON.stringify(error).includes(wrongKey.slice(-4)));
    t.is(error!.cause, undefined);
    t.is(server.calls.length, 0, 'a refusal is not retried');
  }));

test('a connection cut mid-reply fails after the tokens that came', (t) =>
  withServer(async (server) => {
    server.respondWith('One two three four five six seven.');
    server.failMidStreamNext(1);
    const sink = recordingSink();
    const error = await t.throwsAsync(createOpenAIGenerator(settings(server)).generate(input, sink), {
      instanceOf: AnswerGenerationError,
    });
    t.regex(error!.message, /broke off the reply for model "gpt-4o-mini" \(other side closed\)/);
    t.is(sink.events.join(''), 'One two three', 'what came before the cut was streamed');
    t.is(server.calls.length, 1, 'a reply that had started is not retried');
  }));

test('a provider that does not start, or stops mid-reply, times out', (t) =>
  withServer(async (server) => {
    server.delayNext(1, 5_000);
    const slow = await t.throwsAsync(
      createOpenAIGenerator(settings(server, { maxRetries: 0, timeoutMs: 1_000 })).generate(input, recordingSink()),
      {
        instanceOf: AnswerGenerationError,
      },
    );
    t.regex(slow!.message, /did not answer within 1000 ms \(1 attempt\) for model "gpt-4o-mini"/);

    server.stallMidStreamNext(1, 5_000);
    const sink = recordingSink();
    const stalled = await t.throwsAsync(
      createOpenAIGenerator(settings(server, { maxRetries: 0, timeoutMs: 1_000 })).generate(input, sink),
      {
        instanceOf: AnswerGenerationError,
      },
    );
    t.regex(stalled!.message, /sent nothing for 1000 ms in the middle of the reply for model "gpt-4o-mini"/);
    t.true(sink.events.length > 0);
  }));

test('a provider that cannot be reached fails naming the reason', async (t) => {
  const closed = await startFakeChatServer({ apiKey });
  await closed.close();
  const error = await t.throwsAsync(createOpenAIGenerator(settings(closed, { maxRetries: 0 })).generate(input, recordingSink()), {
    instanceOf: AnswerGenerationError,
  });
  t.regex(
    error!.message,
    /^The chat provider at http:\/\/127\.0\.0\.1:\d+\/v1 could not be reached \(connect ECONNREFUSED 127\.0\.0\.1:\d+, 1 attempt\)/,
  );
});

test('settings that cannot work are refused when the generator is made', (t) => {
  const base = { baseUrl: 'http://127.0.0.1:1/v1', model, apiKey };
  t.throws(() => createOpenAIGenerator({ ...base, baseUrl: 'api.openai.com/v1' }), {
    instanceOf: RangeError,
    message: /absolute/,
  });
  t.throws(() => createOpenAIGenerator({ ...base, timeoutMs: 0 }), { instanceOf: RangeError, message: /timeoutMs/ });
  t.throws(() => createOpenAIGenerator({ ...base, maxRetries: -1 }), { instanceOf: RangeError, message: /maxRetries/ });
  t.throws(() => createOpenAIGenerator({ ...base, temperature: 3 }), { instanceOf: RangeError, message: /temperature/ });
});
