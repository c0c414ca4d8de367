import { defineSignal } from '@temporalio/workflow';
import type { ItemOperation, SourceDeletion } from './types.js';

// The names are part of the wire protocol with running workflows: never rename them.

/** A new version of an item, or a cleanup's request to delete it. */
export const itemOperationSignal = defineSignal<[ItemOperation]>('itemOperation');

/** An item workflow's answer to a cleanup's delete request. */
export const sourceDeletedSignal = defineSignal<[SourceDeletion]>('sourceDeleted');
