import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { LocalSecrets } from './config.js';

/**
 * The admin token and the encryption key of a local installation: generated on first start and kept
 * in the data folder (readable by its owner only), so that they survive restarts. Production sets
 * both through the environment instead.
 */
export function readOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: LocalSecrets = {
    adminToken: `adm_${randomBytes(32).toString('base64url')}`,
    secretsKey: randomBytes(32).toString('base64'),
  };
  mkdirSync(dataDir, { recursive: true });
  // 'wx' refuses to overwrite a file another process created meanwhile; then read theirs.
  try {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  }
  return secrets;
}
