import type { Priority } from './types.js';

/**
 * High-priority items have a task queue of their own, served by their own worker slots, so they
 * overtake a backlog of low-priority ones.
 */
export function ingestTaskQueue(base: string, priority: Priority): string {
  return `${base}-ingest-${priority}`;
}

export const ingestPriorities: Priority[] = ['high', 'low'];
