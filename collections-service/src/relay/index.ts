export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
export type { OutboxPublisher } from './outbox-publisher';
export {
  KafkaOutboxPublisher,
  createKafkaProducer,
  type KafkaProducerOptions,
  type ProducerLike,
} from './kafka-outbox-publisher';
export type { OutboxRow } from './relay-outbox.repository';
