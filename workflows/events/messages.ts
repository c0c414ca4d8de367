import { defineSignal } from '@temporalio/workflow';
import type { EventEnvelope } from './types.js';

/** An event for the endpoint: queued behind the ones before it (its wire name never changes). */
export const outboundEventSignal = defineSignal<[EventEnvelope]>('outboundEvent');
