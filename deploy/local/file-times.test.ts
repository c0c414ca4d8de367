import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { readFileTimes, slowestFilesReport } from './file-times.js';

test('the recorded times are read slowest first; a torn or foreign line is left out', (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'file-times-')), 'times.tsv');
  writeFileSync(path, '1200\t800\ta.test.ts\n95000\t9000\tb.test.ts\nnot a line\n\n40000\t7000\tc.test.ts\n1\tx.test.ts\n');
  t.deepEqual(readFileTimes(path), [
    { file: 'b.test.ts', ms: 95_000, cpuMs: 9_000 },
    { file: 'c.test.ts', ms: 40_000, cpuMs: 7_000 },
    { file: 'a.test.ts', ms: 1_200, cpuMs: 800 },
  ]);
  t.deepEqual(readFileTimes(join(path, '..', 'missing.tsv')), []);
});

test('the report names the slowest files with their seconds, and all of them in a sum', (t) => {
  const times = Array.from({ length: 12 }, (_, i) => ({ file: `f${i}.test.ts`, ms: (12 - i) * 1000, cpuMs: 500 }));
  const report = slowestFilesReport(times, 10);
  t.is(report.length, 11);
  t.regex(report[0]!, /the 10 slowest of 12 test files.*78\.0 s wall, 6\.0 s CPU/);
  t.is(report[1], '  12.0 s    0.5 s  f0.test.ts');
  t.is(report[10], '   3.0 s    0.5 s  f9.test.ts');
});
