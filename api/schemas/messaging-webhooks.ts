import { objectOf } from './common.js';

const count = { type: 'integer', minimum: 0 } as const;

/** The answer to a delivery: what of it was taken in (the platform only looks at the status). */
export const webhookAcknowledgement = objectOf({
  received: objectOf({
    messages: { ...count, description: 'Customer messages handed to their conversations.' },
    duplicates: { ...count, description: 'Messages delivered before: nothing was done again.' },
    statuses: { ...count, description: 'Statuses of messages we sent.' },
    ignored: { ...count, description: 'Events for another number, reactions, errors of the platform.' },
  }),
});
