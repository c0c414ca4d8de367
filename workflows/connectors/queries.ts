import { defineQuery } from '@temporalio/workflow';
import type { SyncProgress } from './types.js';

/** Where a sync is: its run, pages read, items sent and position (the Temporal UI's query tab asks it). */
export const syncProgressQuery = defineQuery<SyncProgress>('progress');
