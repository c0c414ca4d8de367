import { EmbeddingRejectedError } from './embeddings/index.js';

/** The item itself is the problem: retrying the same version cannot succeed. */
export class ItemRejectedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ItemRejectedError';
  }
}

/** The code and message of a failure that retrying cannot fix; undefined for a transient one. */
export function permanentFailure(error: unknown): { code: string; message: string } | undefined {
  if (error instanceof ItemRejectedError || error instanceof EmbeddingRejectedError)
    return { code: error.code, message: error.message };
  // weaviate-client does not export its error classes: they are told apart by name.
  if (error instanceof Error && error.constructor.name === 'WeaviateInvalidInputError') {
    return { code: 'index_rejected', message: `The search index refused the item: ${error.message}` };
  }
  return undefined;
}
