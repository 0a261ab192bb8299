import { ConfigError } from '../config';
import { createLogger, type Logger } from '../logger';

export interface Closable {
  close(): Promise<void>;
}

/** Where a started process listens, when it does (a service; not a launcher). */
export interface StartedAt {
  url?: string;
  /** the gateway's monitoring listener */
  metricsUrl?: string;
}

/**
 * What a process started with an IPC channel (standalone's service
 * processes) sends its parent once it is up: its listeners, which it chose
 * itself (port 0), so no port is picked free and then taken by another.
 */
export interface StartedMessage extends StartedAt {
  kind: 'started';
}

export interface ServiceEntry<C extends { logLevel: string }> {
  /** process name in logs and messages */
  name: string;
  loadConfig(env: Record<string, string | undefined>): C;
  start(config: C, logger: Logger): Promise<Closable & StartedAt>;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/**
 * The life of every process: config (a bad environment exits 1 naming each
 * bad variable, no stack trace), start, and on SIGTERM/SIGINT a graceful
 * close then exit 0. A signal during start-up closes the process as soon as
 * it is up, so nothing (the embedded database above all) is cut off
 * mid-write; a second signal kills at once (`once`). Spawned with an IPC
 * channel, it tells its parent where it listens (StartedMessage) and closes
 * when the parent goes away, so a killed launcher leaves no service behind.
 */
export function runService<C extends { logLevel: string }>(
  entry: ServiceEntry<C>,
  env: Record<string, string | undefined>,
): void {
  let config: C;
  try {
    config = entry.loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const logger = createLogger({ service: entry.name, level: config.logLevel });
  let running: Closable | undefined;
  let stopping = false;
  const close = (service: Closable): void => {
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    if (running) close(running);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  if (process.send) process.once('disconnect', () => stop('parent gone'));
  entry.start(config, logger).then(
    (service) => {
      running = service;
      if (stopping) return close(service);
      const started: StartedMessage = { kind: 'started', url: service.url, metricsUrl: service.metricsUrl };
      process.send?.(started);
    },
    (err: unknown) =>
      fail(`${entry.name} failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  );
}
