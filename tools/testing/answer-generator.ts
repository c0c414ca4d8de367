/**
 * Shared setup for tests of the OpenAI answer generator: the fake chat-completions API it talks
 * to, its settings for that fake, and a sink that records what it streams.
 */
import type { OpenAIGeneratorSettings } from '#answering/llm/openai-generator.js';
import type { TokenSink } from '#answering/types.js';
import { startFakeChatServer, type FakeChatServer } from './fake-chat-server.js';

/** The key the fake accepts. */
export const fakeChatApiKey = 'sk-test-0123456789abcdefghijklmnop';
export const fakeChatModel = 'gpt-4o-mini';

/** Runs `run` against a fake chat server that accepts `fakeChatApiKey`, closing it after. */
export async function withFakeChatServer(run: (server: FakeChatServer) => Promise<void>): Promise<void> {
  const server = await startFakeChatServer({ apiKey: fakeChatApiKey });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

/** Generator settings for the fake at `server`: its key and model, 2 retries, 2 s timeout. */
export function generatorSettings(
  server: { baseUrl: string },
  overrides: Partial<OpenAIGeneratorSettings> = {},
): OpenAIGeneratorSettings {
  return { baseUrl: server.baseUrl, model: fakeChatModel, apiKey: fakeChatApiKey, maxRetries: 2, timeoutMs: 2000, ...overrides };
}

/** A sink that keeps what it was sent, in order, with resets marked. */
export function recordingSink() {
  const events: string[] = [];
  const sink: TokenSink & { events: string[]; text(): string } = {
    events,
    token: (delta) => void events.push(delta),
    reset: () => void events.push('<reset>'),
    /** The concatenated tokens since the last reset. */
    text: () => events.slice(events.lastIndexOf('<reset>') + 1).join(''),
  };
  return sink;
}
