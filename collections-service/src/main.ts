/** Process entry: the only reader of process.env. */
import { ConfigError, createLogger } from '@skills/common';
import { loadCollectionsConfig, startCollectionsService, type CollectionsConfig } from './index';

function configOrExit(): CollectionsConfig {
  try {
    return loadCollectionsConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // the message names every bad variable; a stack trace would only hide it
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger({ service: 'collections-service', level: config.logLevel });
  const service = await startCollectionsService(config, logger);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`collections-service failed to start: ${String(err instanceof Error ? err.stack : err)}\n`);
  process.exit(1);
});
