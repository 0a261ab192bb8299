/**
 * Picks the adapters behind the two seams from the config: MemorySearchEngine or
 * ElasticsearchEngine, PostgresEventLog or KafkaEventLog.
 */
import type { Sequelize } from 'sequelize';
import type { EventLog, Logger } from '@skills/common';
import type { CatalogConfig } from './config';
import { PostgresEventLog } from './events/postgres-event-log';
import { createKafkaClient, KafkaEventLog } from './events/kafka';
import type { RejectedEventSink } from './events/rejected-events';

export interface AdapterDeps {
  sequelize: Sequelize;
  logger: Logger;
}

export interface EventLogDeps extends AdapterDeps {
  /** events that break the contract, from either log (the dead-letter store) */
  rejected: RejectedEventSink;
}

/** The engine factory lives beside the engines; it readies Elasticsearch's alias, hence async. */
export { createSearchEngine } from './engines';

export function createEventLog(config: Readonly<CatalogConfig>, deps: EventLogDeps): EventLog {
  switch (config.eventLog) {
    case 'postgres':
      return new PostgresEventLog({
        sequelize: deps.sequelize,
        logger: deps.logger.child({ component: 'event-log' }),
        rejected: deps.rejected,
        listenUrl: config.databaseUrl,
        pollIntervalMs: config.pollIntervalMs,
      });
    case 'kafka': {
      // loadCatalogConfig guarantees the brokers when EVENT_LOG=kafka.
      const kafka = config.kafka!;
      const logger = deps.logger.child({ component: 'event-log' });
      return new KafkaEventLog({
        kafka: createKafkaClient({
          brokers: kafka.brokers,
          clientId: kafka.clientId,
          security: kafka.security,
          logger,
        }),
        logger,
        rejected: deps.rejected,
      });
    }
  }
}
