/** What the local scripts print: one prefixed line per step, so a long first build shows progress. */
export function log(message: string): void {
  process.stdout.write(`[stack] ${message}\n`);
}
