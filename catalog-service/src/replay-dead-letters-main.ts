/**
 * `node catalog-service/dist/replay-dead-letters-main.js`: applies the
 * indexer's dead letters again once their cause is fixed (docs/operations.md).
 * Same environment as catalog-service (DATABASE_URL, SEARCH_ENGINE, …); it
 * prints `{"replayed":n,"failed":n}` and exits 1 when some are still refused.
 */
import { ConfigError, createLogger, createSequelize } from '@skills/common';
import { createSearchEngine } from './adapters';
import { loadCatalogConfig } from './config';
import { replayDeadLetters } from './indexer/dead-letter-replay';
import { SequelizeDeadLetterRepository } from './store/dead-letter.repository';

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
  const logger = createLogger({ service: 'replay-dead-letters', level: config.logLevel });
  const sequelize = createSequelize({
    url: config.databaseUrl,
    poolMax: 2,
    logger,
    applicationName: 'replay-dead-letters',
  });
  try {
    const { engine } = await createSearchEngine(config, { sequelize, logger });
    try {
      const result = await replayDeadLetters({ store: new SequelizeDeadLetterRepository(sequelize), engine, logger });
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exitCode = result.failed > 0 ? 1 : 0;
    } finally {
      await engine.close();
    }
  } finally {
    await sequelize.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`replay failed: ${String(err instanceof Error ? err.stack : err)}\n`);
  process.exit(1);
});
