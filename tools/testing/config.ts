import { randomBytes, randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '#platform/config.js';

/**
 * The configuration of an integration test: the real services `npm test` started (their addresses
 * come through the environment), and a Redis key prefix of the test's own so tests never see each
 * other's records.
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig(
    {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      REDIS_PREFIX: `test-${randomUUID().slice(0, 8)}`,
      ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      // The fake shops and sites listen on 127.0.0.1; production refuses the allowance, so a test of it goes without.
      ...(overrides.NODE_ENV === 'production' ? {} : { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' }),
      // Every test calls from 127.0.0.1, many of them with wrong tokens on purpose: the budgets per
      // client address would count them all together. The tests of those budgets set their own.
      REFUSED_TOKENS_PER_MINUTE: '100000',
      ADMIN_PER_MINUTE: '100000',
      // A test that stops its in-process worker means it gone at once: its activities are cancelled, not awaited.
      SHUTDOWN_GRACE_SECONDS: '0',
      ...overrides,
    },
    { role: 'api' },
  );
}
