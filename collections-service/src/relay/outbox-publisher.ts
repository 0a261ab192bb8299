import type { OutboxRow } from './relay-outbox.repository';

/**
 * Where the relay sends outbox rows. `publish` resolves only once the broker
 * acknowledged every row (for Kafka: all in-sync replicas, acks = -1), and
 * keeps the rows' order for rows of one key.
 */
export interface OutboxPublisher {
  publish(rows: readonly OutboxRow[]): Promise<void>;
  /** after the last publish resolved; releases the connection */
  close(): Promise<void>;
}
