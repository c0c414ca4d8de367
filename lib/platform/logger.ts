import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs on stdout. Credentials are redacted wherever they could appear, so that a
 * log line never carries an API key, a token or a stored secret.
 */
export function createLogger(options: { level: string; name: string }, destination?: DestinationStream): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      base: { pid: process.pid, service: options.name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'headers["x-api-key"]',
          'headers.authorization',
          'headers.cookie',
          '*.headers["x-api-key"]',
          '*.headers.authorization',
          '*.key',
          '*.token',
          '*.adminToken',
          'accessToken',
          'appSecret',
          'verifyToken',
          '*.accessToken',
          '*.appSecret',
          '*.verifyToken',
          '*.secretsKey',
          // A credential's request body, should one ever be logged.
          '*.data.accessToken',
          '*.data.appSecret',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
