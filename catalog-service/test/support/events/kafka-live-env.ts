/**
 * What the live Kafka suites need, read once at load time so a suite can pick
 * `describe` or `describe.skip` (`.ci/optional-suites.cjs` probes the same
 * variables). `local-servers/kafka.sh env` prints them for its broker.
 */
import { randomUUID } from 'node:crypto';
import type { Admin } from 'kafkajs';
import type { KafkaSecuritySettings, SkillChangeEvent } from '@skills/common';
import type { OutboxRow } from '../../../../collections-service/src/relay';
import { eventFor } from './kafka-mock-cluster';
import { itemVersion } from './event-log.conformance';
import { eventually } from '@skills/common/testing';

const list = (value: string | undefined): string[] =>
  value
    ?.split(',')
    .map((b) => b.trim())
    .filter(Boolean) ?? [];

/** KAFKA_BROKERS: a listener where anonymous may create topics (the PLAINTEXT one of kafka.sh). */
export const plaintextBrokers = list(process.env.KAFKA_BROKERS);

export interface SaslEnv {
  brokers: string[];
  caFile: string;
  passwords: { 'collections-service': string; 'catalog-service': string };
}

/** The SASL_SSL listener set up as deploy/ sets it up, or null when a variable is missing. */
export const saslEnv: SaslEnv | null = (() => {
  const brokers = list(process.env.KAFKA_SASL_BROKERS);
  const {
    KAFKA_CA_FILE: caFile,
    KAFKA_COLLECTIONS_PASSWORD: collections,
    KAFKA_CATALOG_PASSWORD: catalog,
  } = process.env;
  if (brokers.length === 0 || !caFile || !collections || !catalog) return null;
  return { brokers, caFile, passwords: { 'collections-service': collections, 'catalog-service': catalog } };
})();

/** The client settings each service gets from its KAFKA_* variables (deploy/test/integration/compose.test.ts pins them). */
export function serviceSecurity(
  env: SaslEnv,
  user: keyof SaslEnv['passwords'],
  password = env.passwords[user],
): KafkaSecuritySettings {
  return { tls: { caFile: env.caFile }, sasl: { mechanism: 'scram-sha-512', username: user, password } };
}

/** An outbox row as collections-service's relay publishes it: a fresh item's first version. */
export function outboxRow(topic: string): OutboxRow {
  const event: SkillChangeEvent = eventFor(itemVersion(randomUUID(), 1));
  return { id: event.eventId, topic, key: event.itemId, event };
}

/**
 * Creates a topic and waits until the broker serves every partition: its
 * offsets answer (ListOffsets reaches the partition's log, not only the
 * metadata). Sooner, a produce to the new topic can fail for one partition
 * with UNKNOWN_TOPIC_OR_PARTITION, and kafkajs then sends the whole request
 * to that broker again, the other partitions' messages included
 * (kafkajs/src/producer/sendMessages.js: one response per broker, dropped
 * and retried whole when any partition failed): at-least-once, but these
 * tests count exact deliveries.
 */
export async function createTopic(admin: Admin, topic: string, numPartitions: number): Promise<void> {
  await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: false });
  await eventually(async () => {
    const offsets = await admin.fetchTopicOffsets(topic).catch(() => []);
    return offsets.length === numPartitions;
  }, `the partitions of ${topic}`);
}
