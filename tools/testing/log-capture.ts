import { Writable } from 'node:stream';

/**
 * A destination for the API's logger that keeps every line it writes, for tests that check what
 * is logged and, above all, what never is (secrets, tokens).
 */
export function captureLogLines(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().trim().split('\n'));
      done();
    },
  });
  return { lines, sink };
}
