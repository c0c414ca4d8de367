import { name, objectOf, uuid } from './common.js';

export const insightsOperatorsResponse = objectOf({
  operators: {
    type: 'array',
    items: objectOf({ id: uuid, name, knowledgeBaseId: uuid, active: { type: 'boolean' } }),
  },
});
