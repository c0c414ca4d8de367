import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ensureGoProgram } from './go-tools.js';

/** What the local scripts printed while `work` ran. */
async function printedDuring(work: () => Promise<unknown>): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let printed = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    printed += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    await work();
  } finally {
    process.stdout.write = write;
  }
  return printed;
}

test('of two builds of one tool at once, one builds and the other waits for it', async (t) => {
  // Go's own build cache stays where it is (it would follow XDG_CACHE_HOME), so only our tool cache is new.
  process.env.GOCACHE = execFileSync('go', ['env', 'GOCACHE'], { encoding: 'utf8' }).trim();
  process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), 'go-tools-cache-'));
  const program = mkdtempSync(join(tmpdir(), 'go-tools-program-'));
  t.teardown(() => {
    for (const dir of [process.env.XDG_CACHE_HOME!, program]) rmSync(dir, { recursive: true, force: true });
  });
  writeFileSync(join(program, 'go.mod'), 'module example.test/hello\n\ngo 1.21\n');
  writeFileSync(join(program, 'main.go'), 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n');

  let paths: string[] = [];
  const printed = await printedDuring(async () => {
    paths = await Promise.all([ensureGoProgram(program, 'hello'), ensureGoProgram(program, 'hello')]);
  });
  t.is(paths[0], paths[1]);
  t.is(execFileSync(paths[0]!, { encoding: 'utf8' }), 'hello\n');
  t.is(printed.match(/\[stack\] building hello/g)?.length, 1, printed);

  const again = await printedDuring(() => ensureGoProgram(program, 'hello'));
  t.is(again, '', 'a built tool is used as it is');
});
