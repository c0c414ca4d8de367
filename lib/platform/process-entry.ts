import { ConfigError, loadConfig, type Config, type ProcessRole } from './config.js';
import { readOrCreateLocalSecrets } from './local-secrets.js';
import type { Logger } from './logger.js';

/** For process entries only: the configuration, or a clear message naming the bad variable and exit 1. */
export function loadConfigOrExit(role: ProcessRole, env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env, { role, localSecrets: readOrCreateLocalSecrets });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/** Runs `stop` once on SIGTERM or SIGINT, then exits. */
export function onShutdown(logger: Logger, stop: () => Promise<unknown>): void {
  const handle = async (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    try {
      await stop();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exitCode = 1;
    }
    process.exit();
  };
  process.once('SIGTERM', handle);
  process.once('SIGINT', handle);
}
