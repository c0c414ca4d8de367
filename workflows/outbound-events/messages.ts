import { defineSignal } from '@temporalio/workflow';
import type { EventEnvelope } from './types.js';

/** An event for the endpoint: queued behind the ones before it (its wire name never changes). */
export const outboundEventSignal = defineSignal<[EventEnvelope]>('outboundEvent');

/** To a delivery started ahead: the one before it was delivered (or given up, or skipped); it may attempt now. */
export const previousDeliveredSignal = defineSignal('previousDelivered');
