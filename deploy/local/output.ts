// When the terminal goes away first (npm exits on Ctrl-C while the script still stops services),
// writing would raise EPIPE and cut the orderly stop short: drop the output instead.
process.stdout.on('error', () => {});

/** What the local scripts print: one prefixed line per step, so a long first build shows progress. */
export function log(message: string): void {
  process.stdout.write(`[stack] ${message}\n`);
}
