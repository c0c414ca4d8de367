import { defineSignal } from '@temporalio/workflow';

// The names are part of the wire protocol with running workflows: never rename them.

/** A files source's file changed (an upload of a new version, or its deletion): the file's record in Redis says which. */
export const fileChangedSignal = defineSignal('fileChanged');
