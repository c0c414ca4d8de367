import { setHandler } from '@temporalio/workflow';
import { connectorActivities } from './activity-options.js';
import { fileChangedSignal } from './messages.js';
import type { UploadedFileInput } from './types.js';

/**
 * Takes an uploaded file's changes into its knowledge base, one at a time: one workflow per file,
 * started (or told) by the API with `signalWithStart` at each upload and deletion. Each round reads
 * the file's record and does what it asks (reads the latest upload and sends its items, or takes
 * the file out); a change told during a round makes another. Two versions uploaded in quick
 * succession are so never read at once, and the later always wins.
 */
export async function uploadedFileWorkflow(input: UploadedFileInput): Promise<void> {
  const { run } = connectorActivities();
  let changed = true;
  setHandler(fileChangedSignal, () => {
    changed = true;
  });
  while (changed) {
    changed = false;
    await run.applyFileChange(input);
  }
}
