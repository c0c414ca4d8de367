import test from 'ava';
import { bundleWorkflows } from '#worker/bundle.js';

// The bundler refuses workflow code that imports a Node built-in or another non-deterministic
// module, so bundling at all is the check; the bundle must also carry every workflow.
test('the workflows bundle for the Temporal sandbox, with every workflow in it', async (t) => {
  const { code } = await bundleWorkflows();
  for (const workflow of ['ingestItemWorkflow', 'cleanupWorkflow']) t.true(code.includes(workflow), workflow);
});
