/**
 * Picks the adapters behind the two seams from the config. The Elasticsearch
 * engine and the Kafka event log plug in here; until they do, choosing them
 * fails at start with a clear message rather than at the first request.
 */
import type { Sequelize } from 'sequelize';
import type { EventLog, Logger } from '@skills/common';
import type { CatalogConfig } from './config';
import { PostgresEventLog } from './events/postgres-event-log';

export interface AdapterDeps {
  sequelize: Sequelize;
  logger: Logger;
}

/** The engine factory lives beside the engines; it readies Elasticsearch's alias, hence async. */
export { createSearchEngine } from './engines';

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
