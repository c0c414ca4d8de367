import type { Problem } from '../progress.js';

/** A question as its sender knows it: the text, and the id it was sent with when the channel takes one. */
export interface Exchange {
  messageId?: string;
  text: string;
}

/** The fields of a transcript message the checks read (the chat and agent APIs' message). */
export interface TranscriptMessage {
  id: string;
  author: string;
  text: string;
  replyTo?: string;
}

type Found = Omit<Problem, 'workload'>;

/**
 * What a transcript must show after any fault: each question sent kept exactly once, each answered
 * exactly once (one message replying to it), no message twice, nothing nobody sent.
 */
export function checkConversation(conversationId: string, exchanges: Exchange[], messages: TranscriptMessage[]): Found[] {
  const problems: Found[] = [];
  const say = (kind: Found['kind'], what: string) => problems.push({ kind, what: `${conversationId}: ${what}` });

  const ids = new Map<string, number>();
  for (const message of messages) ids.set(message.id, (ids.get(message.id) ?? 0) + 1);
  for (const [id, times] of ids) if (times > 1) say('duplicated', `message ${id} is in the transcript ${times} times`);

  const questions = messages.filter((message) => message.author === 'visitor');
  for (const exchange of exchanges) {
    const kept = questions.filter((message) =>
      exchange.messageId ? message.id === exchange.messageId : message.text === exchange.text,
    );
    if (kept.length === 0) {
      say('lost', `"${exchange.text}" is not in the transcript`);
      continue;
    }
    if (kept.length > 1) say('duplicated', `"${exchange.text}" is in the transcript ${kept.length} times`);
    const answers = messages.filter((message) => message.author !== 'visitor' && message.replyTo === kept[0]!.id);
    if (answers.length === 0) say('lost', `"${exchange.text}" was never answered`);
    if (answers.length > 1) say('duplicated', `"${exchange.text}" was answered ${answers.length} times`);
  }
  const sent = new Set(exchanges.map((exchange) => exchange.messageId ?? exchange.text));
  for (const question of questions) {
    if (!sent.has(question.id) && !sent.has(question.text)) say('unexpected', `"${question.text}" was never sent`);
  }
  return problems;
}

/**
 * What the customer must have received on the messaging channel: every message of the transcript
 * that went out (not the customer's own) exactly once, and nothing else.
 */
export function checkDeliveries(customer: string, outgoing: string[], received: string[]): Found[] {
  const problems: Found[] = [];
  const counts = new Map<string, number>();
  for (const text of received) counts.set(text, (counts.get(text) ?? 0) + 1);
  const expected = new Map<string, number>();
  for (const text of outgoing) expected.set(text, (expected.get(text) ?? 0) + 1);
  for (const [text, times] of expected) {
    const got = counts.get(text) ?? 0;
    if (got < times) problems.push({ kind: 'lost', what: `${customer} never received "${clip(text)}"` });
    if (got > times) problems.push({ kind: 'duplicated', what: `${customer} received "${clip(text)}" ${got} times` });
  }
  for (const [text] of counts) {
    if (!expected.has(text))
      problems.push({ kind: 'unexpected', what: `${customer} received "${clip(text)}", which no transcript holds` });
  }
  return problems;
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
