import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

/*
 * Loaded by ava before every test file (package.json, `ava.require`), in the file's own process. When
 * `TEST_FILE_TIMES` names a file, the process appends one line to it as it exits: its wall time and
 * its CPU time in milliseconds, and the test file's path, separated by tabs. `npm test` reads them back to print the slowest files
 * (`deploy/local/file-times.ts`).
 */
const record = process.env.TEST_FILE_TIMES;
if (record) {
  process.once('exit', () => {
    const file = relative(process.cwd(), fileURLToPath(test.meta.file));
    const { user, system } = process.cpuUsage();
    appendFileSync(record, `${Math.round(performance.now())}\t${Math.round((user + system) / 1000)}\t${file}\n`);
  });
}
