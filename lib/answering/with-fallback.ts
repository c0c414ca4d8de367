import type { AnswerGenerator, AnswerInput, ComposedAnswer, TokenSink } from './types.js';

/** An answer and the name of the generator that wrote it (`openai:<model>`, `extractive`). */
export type GeneratedAnswer = ComposedAnswer & { generator: string };

/** A generator whose answers say which generator wrote them. */
export interface FallbackGenerator extends AnswerGenerator {
  generate(input: AnswerInput, sink: TokenSink): Promise<GeneratedAnswer>;
}

/** Where the fallback reports the failures it covers for: pino's `warn(obj, msg)` fits. */
export interface FallbackLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Answers with `primary`, and with `fallback` when `primary` throws, before or during its
 * streaming: the failure is logged as a warning (the generator's name and the error's message,
 * which the generators keep free of secrets), and the tokens the primary had sent are voided with
 * `sink.reset()` before the fallback starts. Tokens a failed primary still sends afterwards are
 * dropped. A failing fallback's error is thrown as it is. Named as the primary. `onFallback` is told
 * of each fallback (the metrics), with the primary's name.
 */
export function withFallback(
  primary: AnswerGenerator,
  fallback: AnswerGenerator,
  logger: FallbackLogger,
  onFallback: (primary: string) => void = () => undefined,
): FallbackGenerator {
  return {
    name: primary.name,
    async generate(input, sink) {
      const primarySink = new TrackingSink(sink);
      try {
        const answer = await primary.generate(input, primarySink);
        // A nested withFallback has already named the generator that wrote the answer.
        return { generator: primary.name, ...answer };
      } catch (error) {
        primarySink.close();
        const tokensVoided = primarySink.sentSinceReset;
        logger.warn(
          {
            generator: primary.name,
            fallback: fallback.name,
            error: error instanceof Error ? error.message : String(error),
            tokensVoided,
          },
          `Answer generator ${primary.name} failed; answering with ${fallback.name} instead`,
        );
        if (tokensVoided) sink.reset();
        onFallback(primary.name);
      }
      const answer = await fallback.generate(input, sink);
      return { generator: fallback.name, ...answer };
    },
  };
}

/** Passes tokens on while open, and knows whether any were sent since the last reset. */
class TrackingSink implements TokenSink {
  sentSinceReset = false;
  private open = true;

  constructor(private readonly sink: TokenSink) {}

  token(delta: string): void {
    if (!this.open) return;
    this.sentSinceReset = true;
    this.sink.token(delta);
  }

  reset(): void {
    if (!this.open) return;
    this.sentSinceReset = false;
    this.sink.reset();
  }

  close(): void {
    this.open = false;
  }
}
