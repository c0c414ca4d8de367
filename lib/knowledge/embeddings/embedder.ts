/**
 * The one interface the ingestion pipeline and search use to turn text into vectors. Which model
 * made a vector is part of its meaning: vectors from different spaces must never be compared, so
 * the space travels with the embedder (and is what gets recorded beside stored vectors).
 */
export interface EmbeddingSpace {
  provider: string;
  model: string;
  dimensions: number;
}

/** How much text a model reads: chunks are cut to fit, so no chunk's tail is dropped unseen. */
export interface TokenWindow {
  /** Tokens the model reads of one text, its own markers included. */
  maxTokens: number;
  /** Tokens `text` takes in the model's own counting. */
  count(text: string): number;
}

/**
 * Who waits for a vector, which decides whose texts a busy local model runs first: a visitor's
 * question (`query`), then a change a person just made (`interactive`: a single item, an article
 * published), then imports and re-indexes (`bulk`). Providers without a queue of their own ignore it.
 */
export type Lane = 'query' | 'interactive' | 'bulk';

export interface EmbedOptions {
  /** `bulk` unless said otherwise. */
  lane?: Lane;
}

export interface Embedder {
  readonly space: EmbeddingSpace;
  /** Present when the model reads only a bounded number of tokens of a text. */
  readonly tokenWindow?: TokenWindow;
  /** One vector per text, in input order. */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}

/**
 * A permanent refusal (bad request, bad key, wrong dimension): retrying cannot help. Activities turn
 * it into a non-retryable ApplicationFailure whose type is `code`.
 */
export class EmbeddingRejectedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddingRejectedError';
  }
}

/**
 * The provider could not answer now (rate limit or server error after the client's own retries,
 * connection failure, timeout). An ordinary error on purpose: the caller's retry policy retries it,
 * and the API can answer 503 instead of 500 when a search query hits it.
 */
export class EmbeddingUnavailableError extends Error {
  constructor(
    message: string,
    /** The HTTP status the provider last answered, when it answered at all. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'EmbeddingUnavailableError';
  }
}
