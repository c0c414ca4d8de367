import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { requireSetting, type Config } from './config.js';

/**
 * Encryption at rest of stored credentials (the messaging channel's tokens and secrets, connectors' shop tokens, passwords and API keys) with
 * AES-256-GCM, under `SECRETS_KEY`.
 *
 * A sealed value reads `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts; keyId = the first 8 hex
 * characters of SHA-256 of the key), so `open` knows which configured key sealed it. Each seal draws a
 * fresh 12-byte IV. The optional associated data binds a ciphertext to its place
 * (`<tenantId>:<connectionId>:<field>`): a sealed token copied into another record, or into another
 * field of the same record, no longer opens.
 *
 * Key rotation:
 * 1. Generate a new key (`openssl rand -base64 32`).
 * 2. Set it as `SECRETS_KEY` and move the old key to `SECRETS_PREVIOUS_KEYS` (comma-separated, newest
 *    first), for the API and the worker alike; restart both.
 * 3. Values sealed with the old key still open; each is re-sealed with the current key the next time
 *    it is read (`lib/messaging/connections.ts` does this lazily).
 * 4. Run `npm run admin -- secrets reseal` (`POST /admin/secrets/reseal`): it opens every record, so
 *    each is sealed with the current key, and lists those it could not open. When that list is empty,
 *    remove the old key from `SECRETS_PREVIOUS_KEYS`. A value still sealed with a removed key fails to
 *    open with an error saying its key is not configured; put the key back to recover it.
 */
export interface SecretBox {
  /** Encrypts `plaintext`; `aad`, when given, must be given again, identical, to open it. */
  seal(plaintext: string, aad?: string): string;
  /** Decrypts a sealed value, or throws SecretBoxError (unknown key, tampered, other record). */
  open(sealed: string, aad?: string): string;
  /** True when the value was sealed with a key other than the current one and should be sealed again. */
  needsResealing(sealed: string): boolean;
}

export type SecretBoxFailure = 'unknown_key' | 'tampered' | 'malformed';

/** A sealed value that cannot be opened. The message names the key id at most, never the value. */
export class SecretBoxError extends Error {
  constructor(
    readonly reason: SecretBoxFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const version = 'v1';
const keyBytes = 32;
const ivBytes = 12;
const tagBytes = 16;

/** The public name of a key: the first 8 hex characters of its SHA-256. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function createSecretBox({ current, previous = [] }: { current: Buffer; previous?: Buffer[] }): SecretBox {
  for (const key of [current, ...previous]) {
    if (key.length !== keyBytes) throw new Error(`A secrets key must be ${keyBytes} bytes; one is ${key.length}.`);
  }
  const currentId = keyIdOf(current);
  // Two keys sharing an id (1 in 4 billion) are both tried: GCM's tag tells the right one.
  const keysById = new Map<string, Buffer[]>();
  for (const key of [current, ...previous]) {
    const id = keyIdOf(key);
    const known = keysById.get(id) ?? [];
    if (!known.some((k) => k.equals(key))) keysById.set(id, [...known, key]);
  }

  return {
    seal(plaintext, aad) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(associatedData(currentId, aad));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [version, currentId, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },

    open(sealed, aad) {
      const { keyId, iv, tag, ciphertext } = parse(sealed);
      const keys = keysById.get(keyId);
      if (!keys) {
        throw new SecretBoxError(
          'unknown_key',
          `The value was sealed with a key that is not configured (key id ${keyId}): add that key to SECRETS_PREVIOUS_KEYS.`,
        );
      }
      for (const key of keys) {
        try {
          const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes });
          decipher.setAAD(associatedData(keyId, aad));
          decipher.setAuthTag(tag);
          return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
        } catch {
          // the tag did not verify with this key; try the next one of the same id
        }
      }
      throw new SecretBoxError(
        'tampered',
        'The sealed value does not verify: it was tampered with or belongs to another record.',
      );
    },

    needsResealing(sealed) {
      return parse(sealed).keyId !== currentId;
    },
  };
}

/** The header is authenticated along with the caller's binding. */
function associatedData(keyId: string, aad = ''): Buffer {
  return Buffer.from(`${version}.${keyId}\n${aad}`, 'utf8');
}

function parse(sealed: string) {
  const parts = sealed.split('.');
  const [prefix, keyId, iv, tag, ciphertext] = parts;
  if (parts.length !== 5 || prefix !== version || !/^[0-9a-f]{8}$/.test(keyId!)) throw malformed();
  return { keyId: keyId!, iv: decode(iv!, ivBytes), tag: decode(tag!, tagBytes), ciphertext: decode(ciphertext!) };
}

/** Strict base64url: a changed character always changes the bytes (no slack in the padding bits). */
function decode(text: string, length?: number): Buffer {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text || (length !== undefined && bytes.length !== length)) throw malformed();
  return bytes;
}

const malformed = () =>
  new SecretBoxError('malformed', 'The sealed value is malformed: it was tampered with or was not sealed by this service.');

/** The process's secret box, from `SECRETS_KEY` and `SECRETS_PREVIOUS_KEYS`, as the API and the worker both build it. */
export function secretBoxFromConfig(config: Pick<Config, 'secretsKey' | 'previousSecretsKeys'>): SecretBox {
  return createSecretBox({ current: requireSetting(config.secretsKey, 'SECRETS_KEY'), previous: config.previousSecretsKeys });
}
