import { ApplicationFailure } from '@temporalio/activity';

/** Tells Temporal not to retry a failure `permanentFailure` (`lib/knowledge/item-failures.ts`) found. */
export function nonRetryable(failure: { code: string; message: string }, cause: unknown): ApplicationFailure {
  return ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: true, cause: cause as Error });
}
