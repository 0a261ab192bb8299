import pino, { type Logger } from 'pino';
import { LOG_SERIALIZERS } from './log-serializers';

/**
 * Paths pino blanks out wherever they appear: keys, tokens and the signed
 * principal never reach a log line, even if someone logs a whole request.
 */
const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers["x-skills-principal"]',
  '*.headers["x-skills-principal"]',
  'key',
  '*.key',
  'token',
  '*.token',
  'adminToken',
  '*.adminToken',
  'secret',
  '*.secret',
];

export interface LoggerOptions {
  service: string;
  level?: string;
  /** where lines go; tests capture them, the default is stdout */
  destination?: pino.DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      name: options.service,
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: LOG_SERIALIZERS,
      base: { service: options.service },
    },
    options.destination,
  );
}

export type { Logger };
