export interface ContentGapsInput {
  tenantId: string;
  operatorId: string;
  /** Seconds without a new signal before it clusters (CONTENT_GAPS_SETTLE_SECONDS). */
  settleSeconds: number;
  /** Carried over continue-as-new: a signal came after the last clustering. */
  pending?: boolean;
}

/**
 * `contentGapsWorkflow`'s signature, for its client: `typeof` the workflow would bring its module, and with it the
 * activities' types, into the library that starts it.
 */
export type ContentGapsWorkflow = (input: ContentGapsInput) => Promise<void>;
