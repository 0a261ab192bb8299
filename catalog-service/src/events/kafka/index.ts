export { KafkaEventLog, type KafkaEventLogOptions } from './kafka-event-log';
export { createKafkaClient, type KafkaLike, type KafkaClientOptions } from './kafka-client';
export { DEFAULT_RETRY, type RetryPolicy } from './batch-processor';
