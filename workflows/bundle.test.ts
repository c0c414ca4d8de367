import vm from 'node:vm';
import test from 'ava';
import { bundleWorkflows } from '#worker/bundle.js';
import * as workflows from './index.js';

// The bundler refuses workflow code that imports a Node built-in or another non-deterministic
// module, so bundling at all is the first check. The second asks the bundle itself, loaded the way
// the worker's sandbox loads it (a context with webpack's module cache), which workflows it
// registers: every export of workflows/index.ts must be one of them.
test('the workflows bundle for the Temporal sandbox, with every workflow in it', async (t) => {
  const { code } = await bundleWorkflows();
  const sandbox = vm.createContext({ __webpack_module_cache__: {} });
  vm.runInContext(code, sandbox);
  const registered = (sandbox as { __TEMPORAL__: { importWorkflows(): Record<string, unknown> } }).__TEMPORAL__.importWorkflows();

  const exported = Object.keys(workflows).sort();
  t.true(exported.length >= 6, 'workflows/index.ts exports the workflows');
  t.deepEqual(Object.keys(registered).sort(), exported);
  for (const name of exported) t.is(typeof registered[name], 'function', name);
});
