import { stringsFor, type OperatorStrings } from '#answering/locales.js';
import type { Locale } from '#workflows/locales.js';
import type { Agent, ClosedBy, StatusNotice } from '#workflows/conversations/types.js';

const notices: Record<StatusNotice, (strings: OperatorStrings, agent: Agent | null) => string> = {
  handoffStarted: (strings) => strings.handoffStarted,
  stillWaitingForAgent: (strings) => strings.stillWaitingForAgent,
  agentJoined: (strings, agent) => strings.agentJoined(agent?.name ?? 'An agent'),
  handedBackToAi: (strings) => strings.handedBackToAi,
  closedIdle: (strings) => strings.closedIdle,
  closedByAgent: (strings) => strings.closedByAgent,
};

/** The words of a status change's notice in the transcript, in the conversation's language. */
export function noticeText(notice: StatusNotice, locale: Locale, agent: Agent | null): string {
  return notices[notice](stringsFor(locale), agent);
}

/** Who closed a conversation, as its closing notice tells (a status change that passes no `closedBy`). */
export const closedByNotice: Partial<Record<string, ClosedBy>> = { closedIdle: 'idle', closedByAgent: 'agent' };
