import type { TestFn } from 'ava';
import type { Browser } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from './browser.js';
import { startIngestionStack, type IngestionStack } from './ingestion.js';
import { tearDown } from './teardown.js';

/**
 * What a test file of the agent page runs against: the real stack (API and worker, with `settings`) and
 * Debian's Chromium, started before the file's tests, both stopped after them.
 */
export function usePageBed(test: TestFn, settings: Record<string, string> = {}) {
  let stack: IngestionStack | undefined;
  let chromium: LaunchedChromium | undefined;
  test.before(async () => {
    [stack, chromium] = await Promise.all([startIngestionStack(settings), launchChromium()]);
  });
  test.after.always(() => tearDown({ chromium: async () => chromium?.close(), ...stack?.closingSteps }));
  return {
    get stack(): IngestionStack {
      if (!stack) throw new Error('The page bed is used before its test.before hook ran.');
      return stack;
    },
    get browser(): Browser {
      if (!chromium) throw new Error('The page bed is used before its test.before hook ran.');
      return chromium.browser;
    },
  };
}
