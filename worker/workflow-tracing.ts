/**
 * Workflow interceptors for tracing, bundled into the workflows' sandbox when tracing is on
 * (`bundle.ts`); like workflow code, deterministic and free of Node. Temporal's OpenTelemetry
 * interceptors trace running workflows, the signals and updates they take in, and the activities
 * they schedule. One addition: an activity about a message (its input's `message.messageId`) is
 * traced as part of the signal or update that brought the message in, not of the workflow's run,
 * which for a conversation began with another request long before. So one chat message's trace
 * goes from the API request through the workflow to the activity that answers it.
 */
import { context as otelContext, type Context } from '@opentelemetry/api';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import type {
  ActivityInput,
  LocalActivityInput,
  Next,
  SignalInput,
  UpdateInput,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

/** Messages taken in whose activities are not scheduled yet: a few at most (effects run one at a time). */
const maxRemembered = 100;

/** The id of the message an input carries, if it is one (`{ messageId }`) or is about one (`{ message: { messageId } }`). */
function messageIdOf(arg: unknown, nested: boolean): string | undefined {
  const holder = nested ? (arg as { message?: unknown } | undefined)?.message : arg;
  const id = (holder as { messageId?: unknown } | undefined)?.messageId;
  return typeof id === 'string' ? id : undefined;
}

class MessageContexts {
  private readonly contexts = new Map<string, Context>();

  /** Remembers the active context (the signal's or update's span) for the message the input carries. */
  remember(args: unknown[]): void {
    const id = messageIdOf(args[0], false);
    if (id === undefined) return;
    this.contexts.set(id, otelContext.active());
    if (this.contexts.size > maxRemembered) this.contexts.delete(this.contexts.keys().next().value!);
  }

  /** Runs the scheduling of an activity about a remembered message in that message's context. */
  within<T>(args: unknown[], schedule: () => T): T {
    const id = messageIdOf(args[0], true);
    const remembered = id === undefined ? undefined : this.contexts.get(id);
    if (!remembered) return schedule();
    this.contexts.delete(id!);
    return otelContext.with(remembered, schedule);
  }
}

class MessageInbound implements WorkflowInboundCallsInterceptor {
  constructor(private readonly messages: MessageContexts) {}

  handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>) {
    this.messages.remember(input.args);
    return next(input);
  }

  handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>) {
    this.messages.remember(input.args);
    return next(input);
  }
}

class MessageOutbound implements WorkflowOutboundCallsInterceptor {
  constructor(private readonly messages: MessageContexts) {}

  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) {
    return this.messages.within(input.args, () => next(input));
  }

  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>) {
    return this.messages.within(input.args, () => next(input));
  }
}

/**
 * Per workflow: Temporal's interceptors outermost on the way in (their span is active when the
 * message is remembered), ours outermost on the way out (the message's context is active when
 * theirs opens the activity's span).
 */
export const interceptors = (): WorkflowInterceptors => {
  const messages = new MessageContexts();
  return {
    inbound: [new OpenTelemetryInboundInterceptor(), new MessageInbound(messages)],
    outbound: [new MessageOutbound(messages), new OpenTelemetryOutboundInterceptor()],
    internals: [new OpenTelemetryInternalsInterceptor()],
  };
};
