import { channels } from '#workflows/conversations/types.js';

/**
 * The `channel` of an insights query (the reports, the content gaps): one rule for every insights
 * route, so anything but `widget` or `messaging` is the same 400 naming `/channel`.
 */
export const insightChannel = {
  enum: [...channels],
  description: 'Only this channel: `widget` or `messaging`. Default: both',
} as const;
