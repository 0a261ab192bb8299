import { randomUUID } from 'node:crypto';
import { Partitioners, type Producer } from 'kafkajs';
import { createLogger, type CatalogItemState, type SkillChangeEvent } from '@skills/common';
import { createKafkaClient, KafkaEventLog } from '../../src/events/kafka';
import { describeEventLogConformance } from './event-log.conformance';
import { mockClusterModule, startMockCluster, type MockCluster } from './kafka-mock-cluster';

const logger = createLogger({ service: 'kafka-test', level: 'silent' });

/** An event as the relay publishes it: the outbox row's jsonb, keyed by item id. */
export function eventFor(item: CatalogItemState): SkillChangeEvent {
  return {
    eventId: randomUUID(),
    type: item.status === 'deleted' ? 'skill.deleted' : 'skill.upserted',
    itemId: item.id,
    version: item.version,
    occurredAt: item.updatedAt,
    item,
  };
}

/**
 * The mock waits a session timeout (less 1 s) for members of a group that
 * rebalances; short timings keep restarts quick. Retries are fast but not so
 * fast that a failing batch is dead-lettered before the lag check looks.
 */
export const FAST_GROUP = {
  sessionTimeoutMs: 6_000,
  heartbeatIntervalMs: 500,
  maxWaitTimeMs: 200,
  retry: { attempts: 5, initialDelayMs: 250, maxDelayMs: 2_000 },
};

const describeWithMock = mockClusterModule() ? describe : describe.skip;

describeWithMock('KafkaEventLog against the librdkafka mock cluster', () => {
  describeEventLogConformance('KafkaEventLog', async () => {
    const cluster: MockCluster = await startMockCluster();
    const kafka = createKafkaClient({ brokers: cluster.brokers, clientId: 'conformance', logger });
    const producer: Producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    return {
      createLog: async () =>
        new KafkaEventLog({
          kafka: createKafkaClient({ brokers: cluster.brokers, clientId: 'conformance', logger }),
          logger,
          ...FAST_GROUP,
        }),
      // The suite checks order across items, which Kafka keeps only within a
      // partition; the mock auto-creates 4, so this harness uses partition 0.
      publish: async (items) => {
        for (const item of items) {
          await producer.send({
            topic: 'skills.changes.v1',
            acks: -1,
            messages: [{ key: item.id, value: JSON.stringify(eventFor(item)), partition: 0 }],
          });
        }
      },
      teardown: async () => {
        await producer.disconnect();
        await cluster.stop();
      },
    };
  });
});
