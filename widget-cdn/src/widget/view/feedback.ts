import type { ChatMessage, Rating } from '../chat-types.js';
import type { UiStrings } from '../strings.js';
import { h } from './elements.js';
import { thumbIcon } from './icons.js';

/** Sends a rating of an AI answer; true once the service has it. */
export type Rate = (messageId: string, rating: Rating, reason?: string) => Promise<boolean>;

/** The chat API keeps at most this many characters of a reason. */
const MAX_REASON_CHARS = 500;

/**
 * Under an AI answer: "helpful" and "not helpful" as toggle buttons, pressed as the visitor last
 * chose (a later choice replaces the earlier one); after "not helpful", an optional line for what
 * was missing. The choice shows at once and is taken back if the service refuses it.
 */
export function renderRating(message: ChatMessage, strings: UiStrings, rate: Rate): HTMLElement {
  const thanks = h('span', { 'data-el': 'thanks', role: 'status' });
  const buttons = (['up', 'down'] as const).map((rating) => {
    const label = rating === 'up' ? strings.helpful : strings.notHelpful;
    const button = h('button', { type: 'button', 'data-rating': rating, 'aria-label': label, title: label }, thumbIcon());
    button.onclick = () => void choose(rating);
    return button;
  });
  const input = h('input', {
    'aria-label': strings.whatMissing,
    placeholder: strings.whatMissing,
    maxlength: String(MAX_REASON_CHARS),
  });
  const reason = h('form', { 'data-el': 'reason', hidden: true }, input, h('button', { type: 'submit' }, strings.send));
  reason.onsubmit = async (event) => {
    event.preventDefault();
    if (await rate(message.id, 'down', input.value.trim() || undefined)) done();
  };
  const press = (rating: Rating | undefined) =>
    buttons.forEach((button) => button.setAttribute('aria-pressed', String(button.dataset.rating === rating)));
  const done = () => {
    reason.hidden = true;
    thanks.textContent = strings.thanks;
  };

  async function choose(rating: Rating): Promise<void> {
    const before = buttons.find((button) => button.getAttribute('aria-pressed') === 'true')?.dataset.rating as Rating | undefined;
    press(rating);
    if (!(await rate(message.id, rating))) return press(before);
    if (rating === 'up') return done();
    thanks.textContent = '';
    reason.hidden = false;
    input.focus();
  }

  press(message.feedback?.rating);
  return h('div', { 'data-el': 'feedback' }, h('div', { 'data-el': 'rate' }, ...buttons, thanks), reason);
}

/** After an agent closed the conversation: "How was your conversation?" with a score from 1 to 5. */
export function renderSurvey(strings: UiStrings, submit: (score: number) => Promise<boolean>): HTMLElement {
  const thanks = h('span', { 'data-el': 'thanks', role: 'status' });
  const scores = [1, 2, 3, 4, 5].map((score) => {
    const button = h('button', { type: 'button', 'aria-label': strings.score(score), 'aria-pressed': 'false' }, String(score));
    button.onclick = async () => {
      if (!(await submit(score))) return;
      scores.forEach((other) => other.setAttribute('aria-pressed', String(other === button)));
      thanks.textContent = strings.thanks;
    };
    return button;
  });
  return h(
    'div',
    { 'data-el': 'survey', role: 'group', 'aria-label': strings.rateConversation },
    h('p', {}, strings.rateConversation),
    h('div', {}, ...scores),
    thanks,
  );
}
