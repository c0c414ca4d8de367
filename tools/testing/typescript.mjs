// Loaded first by ava in each test file's process (package.json, `ava.require`): tsx's module hooks,
// registered here rather than by `node --import tsx`, so that the process's worker threads (Temporal's
// workflow threads, the model's) do not inherit the option and each load tsx again for nothing: they
// run JavaScript only (lib/platform/threads/thread.ts bundles ours).
import { register } from 'tsx/esm/api';

register();
