// Under Node 20, worker threads do not inherit tsx's module hooks, so a thread cannot import a
// TypeScript module by itself. In development and tests (which run the TypeScript sources), a
// thread's module is loaded through this file, which registers the hooks first. The compiled service
// loads the compiled module directly and never reads this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { default: task } = await import(workerData.typescriptModule);
export default task;
