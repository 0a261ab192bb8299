/** Process entry: the only reader of process.env. */
import { ConfigError, createLogger } from '@skills/common';
import { loadCatalogConfig, startCatalogService } from './index';

async function main(): Promise<void> {
  let config;
  try {
    config = loadCatalogConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ service: 'catalog-service', level: config.logLevel });
  const service = await startCatalogService(config, logger);
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
  process.stderr.write(`catalog-service failed to start: ${String(err instanceof Error ? err.stack : err)}\n`);
  process.exit(1);
});
