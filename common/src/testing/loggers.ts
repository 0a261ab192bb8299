/**
 * The loggers tests hand to what they start: one that says nothing, and one
 * that keeps the warnings and errors so a test can assert a piece said why
 * it fell back.
 */
import { createLogger, type Logger } from '../logger';

/** A logger that drops every line; `service` names it as the real one would. */
export function silentLogger(service = 'test'): Logger {
  return createLogger({ service, level: 'silent' });
}

/** A logger that keeps the text of each warning and error in `warnings`; the other levels are dropped. */
export function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const record = (...args: unknown[]): void => {
    warnings.push(String(args.find((a) => typeof a === 'string') ?? ''));
  };
  const logger = {
    warn: record,
    error: record,
    info: () => {},
    debug: () => {},
    child: () => logger,
  } as unknown as Logger;
  return { logger, warnings };
}
