/**
 * The EventLog conformance suite against a real Kafka cluster, when
 * KAFKA_BROKERS names one (`local-servers/kafka.sh start`, its PLAINTEXT
 * listener); skipped otherwise.
 * Each setup uses a fresh one-partition topic, so runs never see each other.
 */
import { randomUUID } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { createKafkaClient, KafkaEventLog } from '../../../src/events/kafka';
import { describeEventLogConformance } from '../../support/events/event-log.conformance';
import { REFUSE_NOTHING } from '../../support/rejected-events';
import { eventFor, FAST_GROUP } from '../../support/events/kafka-mock-cluster';
import { createTopic } from '../../support/events/kafka-live-env';
import { silentLogger } from '@skills/common/testing';

const brokers =
  process.env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean) ?? [];
const logger = silentLogger('kafka-live-test');
const describeLive = brokers.length > 0 ? describe : describe.skip;

describeLive('KafkaEventLog against the cluster in KAFKA_BROKERS', () => {
  describeEventLogConformance('KafkaEventLog (live)', async () => {
    const topic = `skills.changes.v1.test-${randomUUID()}`;
    const kafka = createKafkaClient({ brokers, clientId: 'live-conformance', logger });
    const admin = kafka.admin();
    await admin.connect();
    await createTopic(admin, topic, 1);
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    return {
      createLog: async () =>
        new KafkaEventLog({
          kafka: createKafkaClient({ brokers, clientId: 'live-conformance', logger }),
          logger,
          topic,
          rejected: REFUSE_NOTHING,
          ...FAST_GROUP,
        }),
      publish: async (items) => {
        for (const item of items) {
          await producer.send({ topic, acks: -1, messages: [{ key: item.id, value: JSON.stringify(eventFor(item)) }] });
        }
      },
      teardown: async () => {
        await producer.disconnect();
        await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
        await admin.disconnect();
      },
    };
  });
});
