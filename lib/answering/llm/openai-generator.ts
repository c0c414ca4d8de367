import type OpenAI from 'openai';
import { createOpenAIClient, describeEndpoint, requireWholeNumber } from '#platform/openai/client.js';
import type { ProviderContext } from '#platform/openai/errors.js';
import { answerMessages } from './answer-prompt.js';
import { failure, StreamBrokenError, toGenerationError } from './generation-errors.js';
import { stringsFor } from '../locales.js';
import { citationsIn, ReplyFilter } from './stream-filter.js';
import type { AnswerGenerator, AnswerInput } from '../types.js';

export { answerInstructions, noAnswerSentinel, passagesAndQuestion } from './answer-prompt.js';
export { AnswerGenerationError } from './generation-errors.js';

export interface OpenAIGeneratorSettings {
  /** The API root including its version, as the SDK expects: https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  apiKey: string;
  /** The longest wait for the reply to start (per attempt), and then between two streamed chunks. */
  timeoutMs?: number;
  /** Retries of a 408/409/429/5xx or a failed connection before the reply starts, by the SDK with its backoff and Retry-After. */
  maxRetries?: number;
  /** Sent only when set: some models accept no temperature but their default. */
  temperature?: number;
  /** The most tokens one answer may cost (`max_tokens`): a prompt-injected or rambling reply stops there. */
  maxTokens?: number;
}

export const defaultAnswerTimeoutMs = 20_000;
export const defaultAnswerMaxRetries = 2;
export const defaultAnswerMaxTokens = 800;

/**
 * A generator that has a chat model write the answer from the retrieved passages, streamed. What
 * it streams is the model's reply with three things held back until they are settled, so that the
 * concatenated tokens always equal the returned text:
 * - the sentinel: anything that could still become `NO_ANSWER` waits; a reply containing it is
 *   `unknown` and answered with the operator's words (after `reset()` if text had gone out);
 * - citation markers: a marker waits until it is complete, and one naming no given source is
 *   dropped with the spaces before it (`[1, 9]` becomes `[1]`, `[1, 2]` becomes `[1][2]`);
 * - whitespace at either end of the reply is never sent.
 */
export function createOpenAIGenerator(settings: OpenAIGeneratorSettings): AnswerGenerator {
  const { model, apiKey, temperature } = settings;
  const timeoutMs = settings.timeoutMs ?? defaultAnswerTimeoutMs;
  const maxRetries = settings.maxRetries ?? defaultAnswerMaxRetries;
  const maxTokens = settings.maxTokens ?? defaultAnswerMaxTokens;
  requireWholeNumber('chat', 'maxRetries', maxRetries, 0);
  requireWholeNumber('chat', 'maxTokens', maxTokens, 1);
  requireWholeNumber('chat', 'timeoutMs', timeoutMs, 1);
  if (temperature !== undefined && !(temperature >= 0 && temperature <= 2)) {
    throw new RangeError(`The chat setting temperature must be from 0 to 2, not ${temperature}`);
  }
  const endpoint = describeEndpoint('chat', settings.baseUrl);
  const context: ProviderContext = { endpoint, model, apiKey, maxRetries, timeoutMs };
  const client = createOpenAIClient({ baseUrl: settings.baseUrl, apiKey, maxRetries, timeoutMs });

  return {
    name: `openai:${model}`,
    async generate(input, sink) {
      const reply = new ReplyFilter(sink, new Set(input.sources.map((source) => source.n)));
      let ending: StreamEnding;
      try {
        ending = await streamReply(client, context, chatRequest(input, model, temperature, maxTokens), reply);
      } catch (error) {
        throw toGenerationError(error, context);
      }

      if (reply.sentinelSeen || (ending.refused && reply.text === '')) {
        if (reply.text !== '') sink.reset();
        const strings = stringsFor(input.locale);
        const text = `${strings.dontKnow} ${strings.offerHuman}`;
        sink.token(text);
        return { outcome: 'unknown', text, citations: [] };
      }
      if (ending.finishReason === undefined) {
        throw failure(context, `ended the reply stream for model "${model}" before the reply was complete`);
      }
      if (ending.finishReason === 'content_filter') {
        throw failure(context, `withheld the reply for model "${model}" (content filter)`);
      }
      reply.end();
      if (reply.text === '') throw failure(context, `sent an empty reply for model "${model}"`);
      return { outcome: 'answered', text: reply.text, citations: citationsIn(reply.text, input.sources) };
    },
  };
}

function chatRequest(input: AnswerInput, model: string, temperature: number | undefined, maxTokens: number) {
  const messages = answerMessages(input);
  return {
    model,
    messages,
    stream: true as const,
    max_tokens: maxTokens,
    ...(temperature === undefined ? {} : { temperature }),
  };
}

interface StreamEnding {
  /** `stop`, `length`, …; undefined when the stream ended without saying why. */
  finishReason: string | undefined;
  /** The model sent a refusal instead of content. */
  refused: boolean;
}

/**
 * Reads the streamed reply into `reply`, stopping early once the sentinel shows. The SDK's timeout
 * ends only at the response headers, so a stream that goes quiet for `timeoutMs` is aborted here.
 */
async function streamReply(
  client: OpenAI,
  context: ProviderContext,
  request: ReturnType<typeof chatRequest>,
  reply: ReplyFilter,
): Promise<StreamEnding> {
  const abort = new AbortController();
  const stream = await client.chat.completions.create(request, { signal: abort.signal });
  let stalled = false;
  let idle: NodeJS.Timeout | undefined;
  const restartIdleTimer = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      stalled = true;
      abort.abort();
    }, context.timeoutMs);
  };

  const ending: StreamEnding = { finishReason: undefined, refused: false };
  restartIdleTimer();
  try {
    for await (const chunk of stream) {
      restartIdleTimer();
      const choice = chunk.choices[0];
      if (choice?.delta?.content) reply.push(choice.delta.content);
      if (choice?.delta?.refusal) ending.refused = true;
      if (choice?.finish_reason) ending.finishReason = choice.finish_reason;
      // Leaving the loop aborts the request: the rest of the reply is not needed.
      if (reply.sentinelSeen) break;
    }
  } catch (error) {
    throw new StreamBrokenError(error);
  } finally {
    clearTimeout(idle);
  }
  // An aborted stream ends quietly, as if complete.
  if (stalled) {
    throw failure(context, `sent nothing for ${context.timeoutMs} ms in the middle of the reply for model "${context.model}"`);
  }
  return ending;
}
