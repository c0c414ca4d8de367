import { templateCategories, templateLimits } from '#messaging/templates.js';
import { objectOf, timestamp } from './common.js';
import { textPatterns } from './text-patterns.js';

export const templateName = {
  type: 'string',
  minLength: 1,
  maxLength: 512,
  pattern: textPatterns.templateName.pattern,
  description: "The template's name as approved on the platform.",
  examples: ['order_update'],
} as const;

export const templateLanguage = {
  type: 'string',
  maxLength: 6,
  pattern: textPatterns.templateLanguage.pattern,
  description: 'The language of the approved translation, as the platform writes it.',
  examples: ['en_US'],
} as const;

const templateProperties = {
  name: templateName,
  language: templateLanguage,
  category: { enum: [...templateCategories], description: "The platform's category of the template." },
  body: {
    type: 'string',
    minLength: 1,
    maxLength: templateLimits.bodyChars,
    pattern: textPatterns.notBlank.pattern,
    description:
      'The approved body text, with `{{1}}`, `{{2}}`… where its parameters go (numbered from 1 without gaps, at most 20): the transcript shows it filled in, as the customer reads it.',
    examples: ['Hello {{1}}, your order {{2}} has shipped.'],
  },
} as const;

export const createTemplateRequest = objectOf(templateProperties);

export const templateResponse = objectOf({
  ...templateProperties,
  bodyParameters: { type: 'integer', minimum: 0, description: 'How many parameters the body takes.' },
  createdAt: timestamp,
});

export const templateListResponse = objectOf({ templates: { type: 'array', items: templateResponse } });
