// Runs before `npm start` and `npm test` (their pre-scripts), with nothing but Node: installs the
// dependencies on a fresh clone, and again whenever package-lock.json has changed since.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const lockHash = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');
const stamp = 'node_modules/.installed-lock-hash';

if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lockHash) {
  console.log('[stack] installing Node dependencies (npm ci)');
  // onnxruntime-node's install step would download GPU libraries from outside; the CPU library it
  // ships is all the embedder needs.
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
  });
  writeFileSync(stamp, lockHash);
}
