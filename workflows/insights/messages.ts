import { defineSignal } from '@temporalio/workflow';

/** A gap was recorded, or a cluster marked or unmarked: cluster again once they settle (wire name never changes). */
export const gapsChangedSignal = defineSignal('gapsChanged');
