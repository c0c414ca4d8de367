import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { ItemOperation, ReindexProgress, SourceDeletion } from './types.js';

// The names are part of the wire protocol with running workflows: never rename them.

/** A new version of an item, a cleanup's request to delete it, or a re-index's to embed it again. */
export const itemOperationSignal = defineSignal<[ItemOperation]>('itemOperation');

/** An item workflow's answer to a cleanup's delete request. */
export const sourceDeletedSignal = defineSignal<[SourceDeletion]>('sourceDeleted');

/** Where a knowledge base's re-index is (the Temporal UI's query tab asks it; the memo `progress` says the same). */
export const reindexProgressQuery = defineQuery<ReindexProgress>('reindexProgress');
