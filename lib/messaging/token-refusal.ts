import { GraphApiError } from './graph-errors.js';

/**
 * The one rule for a Graph call whose token the platform refused (code 190, answered with a 401),
 * whatever the call (a send, a read receipt, a media upload): the connection is marked
 * `token_invalid`, and nothing more is sent with it until the token is replaced. Answers whether
 * `error` was such a refusal.
 */
export async function markIfTokenRefused(
  connections: { markTokenInvalid(connectionId: string): Promise<void> },
  connectionId: string,
  error: unknown,
): Promise<boolean> {
  if (!(error instanceof GraphApiError) || error.kind !== 'token_invalid') return false;
  await connections.markTokenInvalid(connectionId);
  return true;
}
