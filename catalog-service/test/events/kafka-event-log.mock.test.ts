import { Partitioners, type Producer } from 'kafkajs';
import { createLogger } from '@skills/common';
import { createKafkaClient, KafkaEventLog } from '../../src/events/kafka';
import { describeEventLogConformance } from './event-log.conformance';
import { eventFor, FAST_GROUP, mockClusterModule, startMockCluster, type MockCluster } from './kafka-mock-cluster';

const logger = createLogger({ service: 'kafka-test', level: 'silent' });

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
