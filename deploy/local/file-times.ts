import { existsSync, readFileSync } from 'node:fs';

export interface FileTime {
  file: string;
  /** The file's process from start to exit. */
  ms: number;
  /** The CPU time its process used (the services it called are not counted). */
  cpuMs: number;
}

/**
 * The test files' times that `tools/testing/file-times.ts` recorded (one `wall ms<TAB>CPU ms<TAB>path`
 * line per file that ran to its end), slowest first.
 */
export function readFileTimes(path: string): FileTime[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(
      (fields): fields is [string, string, string] => fields.length === 3 && fields.slice(0, 2).every((n) => /^\d+$/.test(n)),
    )
    .map(([ms, cpuMs, file]) => ({ file, ms: Number(ms), cpuMs: Number(cpuMs) }))
    .sort((a, b) => b.ms - a.ms);
}

/** The `count` slowest files as lines to print: wall and CPU seconds, then the file; what all add up to first. */
export function slowestFilesReport(times: FileTime[], count = 10): string[] {
  const sum = (pick: (time: FileTime) => number) => times.reduce((total, time) => total + pick(time), 0);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
  return [
    `the ${Math.min(count, times.length)} slowest of ${times.length} test files, wall and CPU time of their processes ` +
      `(all files: ${seconds(sum((time) => time.ms)).trim()} wall, ${seconds(sum((time) => time.cpuMs)).trim()} CPU, several at once):`,
    ...times.slice(0, count).map((time) => `${seconds(time.ms)} ${seconds(time.cpuMs)}  ${time.file}`),
  ];
}
