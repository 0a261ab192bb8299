import { Kafka, logLevel, type Admin, type Consumer, type ConsumerConfig, type LogEntry, type Producer, type ProducerConfig } from 'kafkajs';
import type { Logger } from 'pino';

/**
 * The part of kafkajs this adapter uses, as structural types: the real
 * `Kafka` satisfies it, and tests substitute fakes where the mock cluster
 * cannot act (broker errors, rebalances). Keeping the surface this small is
 * also what makes moving to @confluentinc/kafka-javascript's KafkaJS-compatible
 * API a local change (docs/kafka.md).
 */
export type ConsumerLike = Pick<Consumer, 'connect' | 'subscribe' | 'run' | 'disconnect'>;
export type ProducerLike = Pick<Producer, 'connect' | 'send' | 'disconnect'>;
export type AdminLike = Pick<Admin, 'connect' | 'disconnect' | 'fetchOffsets' | 'fetchTopicOffsets' | 'describeCluster'>;

export interface KafkaLike {
  consumer(config: ConsumerConfig): ConsumerLike;
  producer(config?: ProducerConfig): ProducerLike;
  admin(): AdminLike;
}

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
