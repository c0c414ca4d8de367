import type { Logger } from '#platform/logger.js';
import type { ConversationRecord } from '#conversations/records.js';
import type { ApiKey, Operator, User } from '#tenancy/index.js';

/**
 * What the middleware learns about a request, typed for every router (`new Router<ApiState>()`).
 * A route with a query schema also finds the validated query in `query`, typed from that schema
 * (`DocumentedRouter`).
 */
export interface ApiState {
  requestId: string;
  log: Logger;
  /** Set by API-key authentication; the tenant always comes from here, never from a body. */
  apiKey?: ApiKey;
}

/** The state after `requireApiKey`. */
export interface AuthenticatedState extends ApiState {
  apiKey: ApiKey;
}

/** The state of a widget request after `requireOperator`. */
export interface ChatState extends ApiState {
  operator: Operator;
}

/** A widget request about one conversation, after the visitor's token was checked. */
export interface VisitorState extends ChatState {
  conversation: ConversationRecord;
}

/** A dashboard-area request after `requireUser`: a tenant user (admin or agent). */
export interface UserState extends ApiState {
  user: User;
}
