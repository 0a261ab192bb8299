import type { Admin, Consumer, ConsumerConfig, Producer, ProducerConfig } from 'kafkajs';

/**
 * The part of kafkajs this adapter uses, as structural types: the real
 * `Kafka` satisfies it, and tests substitute fakes where the mock cluster
 * cannot act (broker errors, rebalances). Keeping the surface this small is
 * also what makes moving to @confluentinc/kafka-javascript's KafkaJS-compatible
 * API a local change (docs/kafka.md).
 */
export type ConsumerLike = Pick<Consumer, 'connect' | 'subscribe' | 'run' | 'disconnect'>;
export type ProducerLike = Pick<Producer, 'connect' | 'send' | 'disconnect'>;
export type AdminLike = Pick<
  Admin,
  'connect' | 'disconnect' | 'fetchOffsets' | 'fetchTopicOffsets' | 'describeCluster'
>;

export interface KafkaLike {
  consumer(config: ConsumerConfig): ConsumerLike;
  producer(config?: ProducerConfig): ProducerLike;
  admin(): AdminLike;
}

export { createKafkaClient, type KafkaClientOptions } from '@skills/common/kafka';
