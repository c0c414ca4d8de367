import { existsSync, readFileSync } from 'node:fs';

export interface FileTime {
  file: string;
  ms: number;
}

/**
 * The test files' wall times that `tools/testing/file-times.ts` recorded (one `ms<TAB>path` line per
 * file that ran to its end), slowest first.
 */
export function readFileTimes(path: string): FileTime[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((fields): fields is [string, string] => fields.length === 2 && /^\d+$/.test(fields[0]!))
    .map(([ms, file]) => ({ file, ms: Number(ms) }))
    .sort((a, b) => b.ms - a.ms);
}

/** The `count` slowest files as lines to print, seconds first, with what they add up to beside them. */
export function slowestFilesReport(times: FileTime[], count = 10): string[] {
  const total = times.reduce((sum, time) => sum + time.ms, 0);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
  return [
    `the ${Math.min(count, times.length)} slowest of ${times.length} test files (their processes' wall time; ${seconds(total).trim()} in all, several at once):`,
    ...times.slice(0, count).map((time) => `${seconds(time.ms)}  ${time.file}`),
  ];
}
