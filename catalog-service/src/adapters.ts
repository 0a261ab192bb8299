/**
 * Picks the adapters behind the two seams from the config. The Elasticsearch
 * engine and the Kafka event log plug in here; until they do, choosing them
 * fails at start with a clear message rather than at the first request.
 */
import type { Sequelize } from 'sequelize';
import type { EventLog, Logger } from '@skills/common';
import type { CatalogConfig } from './config';
import { PostgresEngine } from './engines/postgres/postgres-engine';
import type { SearchEngine } from './engines/search-engine';
import { PostgresEventLog } from './events/postgres-event-log';

export interface AdapterDeps {
  sequelize: Sequelize;
  logger: Logger;
}

export function createSearchEngine(config: Readonly<CatalogConfig>, deps: AdapterDeps): SearchEngine {
  switch (config.searchEngine) {
    case 'postgres':
      return new PostgresEngine({ sequelize: deps.sequelize, logger: deps.logger.child({ component: 'search' }) });
    case 'elasticsearch':
      throw new Error('SEARCH_ENGINE=elasticsearch is not wired into catalog-service yet');
  }
}

export function createEventLog(config: Readonly<CatalogConfig>, deps: AdapterDeps): EventLog {
  switch (config.eventLog) {
    case 'postgres':
      return new PostgresEventLog({
        sequelize: deps.sequelize,
        logger: deps.logger.child({ component: 'event-log' }),
        listenUrl: config.databaseUrl,
        pollIntervalMs: config.pollIntervalMs,
      });
    case 'kafka':
      throw new Error('EVENT_LOG=kafka is not wired into catalog-service yet');
  }
}
