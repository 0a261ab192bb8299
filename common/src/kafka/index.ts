/**
 * The kafkajs client both services build (the relay in collections-service,
 * the consumer in catalog-service). A subpath of its own (`@skills/common/kafka`)
 * so that only the Kafka adapters load the driver.
 */
import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from 'pino';

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
}

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * A kafkajs client whose log lines go to our pino logger. Only its warnings
 * and errors: at info kafkajs narrates routine connection and group churn.
 */
export function createKafkaClient(options: KafkaClientOptions): Kafka {
  const log = options.logger.child({ component: 'kafkajs' });
  return new Kafka({
    brokers: options.brokers,
    clientId: options.clientId,
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        log[LEVELS[level] ?? 'info'](rest, message);
      },
  });
}
