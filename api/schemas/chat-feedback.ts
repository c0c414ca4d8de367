import { reasonMaxChars } from '#insights/ratings.js';
import { nullable, objectOf, timestamp } from './common.js';
import { textPatterns } from './text-patterns.js';

/** The schemas of the widget's ratings (docs/insights.md, "Feedback"). */

export const rating = { enum: ['up', 'down'], description: '`up`: the answer helped; `down`: it did not.' } as const;

export const feedbackReason = {
  type: 'string',
  minLength: 1,
  maxLength: reasonMaxChars,
  pattern: textPatterns.notBlank.pattern,
  description: `Why, in the visitor's words (at most ${reasonMaxChars} characters); meant for \`down\`, kept with \`up\` too.`,
} as const;

export const answerFeedbackRequest = objectOf({ rating, reason: feedbackReason }, ['reason']);

export const answerFeedbackResponse = objectOf({
  messageId: { type: 'string' },
  rating,
  reason: nullable(feedbackReason),
  ratedAt: timestamp,
});

const score = { type: 'integer', minimum: 1, maximum: 5, description: '1 (poor) to 5 (excellent).' } as const;

export const satisfactionRequest = objectOf({ score });

export const satisfactionResponse = objectOf({ score, ratedAt: timestamp });
