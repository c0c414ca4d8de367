import type { Logger } from '#platform/logger.js';
import type { ApiKey } from '#tenancy/index.js';

/** What the middleware learns about a request, typed for every router (`new Router<ApiState>()`). */
export interface ApiState {
  requestId: string;
  log: Logger;
  /** The query string, checked and typed by `validateQuery`. */
  query?: Record<string, unknown>;
  /** Set by API-key authentication; the tenant always comes from here, never from a body. */
  apiKey?: ApiKey;
}

/** The state after `requireApiKey`. */
export interface AuthenticatedState extends ApiState {
  apiKey: ApiKey;
}
