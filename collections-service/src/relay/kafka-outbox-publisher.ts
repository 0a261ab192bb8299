import { Partitioners, type Message, type Producer } from 'kafkajs';
import { createKafkaClient, type KafkaClientOptions } from '@skills/common/kafka';
import type { OutboxPublisher } from './outbox-publisher';
import type { OutboxRow } from './relay-outbox.repository';

/** The part of a kafkajs producer the relay uses; tests substitute fakes for broker errors. */
export type ProducerLike = Pick<Producer, 'connect' | 'sendBatch' | 'disconnect'>;

export type KafkaProducerOptions = KafkaClientOptions;

/**
 * The conservative kafkajs subset (docs/kafka.md; kafkajs is unmaintained):
 * no idempotent producer, no transactions; one request in flight, so a retried
 * request cannot overtake the next one and reorder an item's events.
 */
export function createKafkaProducer(options: KafkaProducerOptions): Producer {
  const kafka = createKafkaClient(options);
  return kafka.producer({
    idempotent: false,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: true,
    // murmur2 on the key, as the Java client: an item's events land on one partition.
    createPartitioner: Partitioners.DefaultPartitioner,
  });
}

/** Publishes outbox rows keyed by item id, each as the outbox's JSON event. */
export class KafkaOutboxPublisher implements OutboxPublisher {
  private connected?: Promise<void>;

  constructor(private readonly producer: ProducerLike) {}

  async publish(rows: readonly OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.connect();
    const byTopic = new Map<string, Message[]>();
    for (const row of rows) {
      const messages = byTopic.get(row.topic) ?? [];
      messages.push({
        key: row.key,
        value: JSON.stringify(row.event),
        headers: { 'event-id': row.id, 'event-type': row.event.type, 'content-type': 'application/json' },
      });
      byTopic.set(row.topic, messages);
    }
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  }

  /** kafkajs sends without buffering: once the last publish resolved, nothing is left to flush. */
  async close(): Promise<void> {
    if (!this.connected) return;
    this.connected = undefined;
    await this.producer.disconnect();
  }

  private connect(): Promise<void> {
    this.connected ??= this.producer.connect().catch((err: unknown) => {
      this.connected = undefined;
      throw err;
    });
    return this.connected;
  }
}
