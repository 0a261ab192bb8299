import { Partitioners, type Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { createLogger, type SkillChangeEvent } from '@skills/common';
import { createKafkaClient, DEAD_LETTER_TOPIC, KafkaEventLog } from '../../src/events/kafka';
import { describeEventLogConformance, eventually, itemVersion } from './event-log.conformance';
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

  describe('KafkaEventLog beyond the conformance suite', () => {
    let cluster: MockCluster;
    let producer: Producer;
    let log: KafkaEventLog;
    const client = () => createKafkaClient({ brokers: cluster.brokers, clientId: 'kafka-test', logger });

    beforeEach(async () => {
      cluster = await startMockCluster();
      producer = client().producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      log = new KafkaEventLog({ kafka: client(), logger, ...FAST_GROUP, retry: { attempts: 2, initialDelayMs: 50, maxDelayMs: 50 } });
    });
    afterEach(async () => {
      await log.close();
      await producer.disconnect();
      await cluster.stop();
    });

    const send = (messages: { key: string; value: string; partition?: number }[]) =>
      producer.send({ topic: 'skills.changes.v1', acks: -1, messages });

    it('dead-letters unparseable events with the reason in headers and moves on; a refused event is retried, not dead-lettered', async () => {
      const poison = itemVersion(randomUUID(), 1);
      const good = itemVersion(randomUUID(), 1);
      await send([
        { key: 'garbage', value: '{"not": "an event"', partition: 0 },
        { key: poison.id, value: JSON.stringify(eventFor(poison)), partition: 0 },
        { key: good.id, value: JSON.stringify(eventFor(good)), partition: 0 },
      ]);
      const applied: string[] = [];
      let refusals = 0;
      const sub = await log.subscribe('indexer', async (events) => {
        // Poison is the handler's call (the indexer's dead-letter store): the event log only redelivers.
        if (events.some((e) => e.itemId === poison.id) && refusals < 2) {
          refusals += 1;
          throw new Error('mapping rejected the document');
        }
        applied.push(...events.map((e) => e.itemId));
      });

      const letters: { value: string; headers: Record<string, string> }[] = [];
      const reader = client().consumer({ groupId: 'dlq-reader', maxWaitTimeInMs: 200 });
      await reader.connect();
      await reader.subscribe({ topics: [DEAD_LETTER_TOPIC], fromBeginning: true });
      await reader.run({
        eachMessage: async ({ message }) => {
          const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
          letters.push({ value: String(message.value), headers });
        },
      });
      try {
        await eventually(() => letters.length >= 1 && applied.length >= 2, 'a dead letter and both events applied');
        expect(applied).toEqual([poison.id, good.id]);
        expect(refusals).toBe(2);
        expect(letters).toHaveLength(1);
        const byReason = Object.fromEntries(letters.map((l) => [l.headers['dlq-reason'], l]));
        expect(byReason['unparseable']?.value).toBe('{"not": "an event"');
        expect(byReason['unparseable']?.headers).toMatchObject({
          'dlq-group': 'indexer',
          'dlq-original-topic': 'skills.changes.v1',
          'dlq-original-partition': '0',
          'dlq-original-offset': '0',
        });
        // The group moved past all three messages.
        await eventually(async () => (await sub.lag()) === 0, 'no lag');
      } finally {
        await reader.disconnect();
      }
    });

    it("keeps each item's events in order when items spread over partitions", async () => {
      const items = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      for (let version = 1; version <= 3; version++) {
        await send(items.map((id) => ({ key: id, value: JSON.stringify(eventFor(itemVersion(id, version))) })));
      }
      const received: SkillChangeEvent[] = [];
      await log.subscribe('indexer', async (events) => void received.push(...events));
      await eventually(() => received.length >= 12, 'twelve events');
      for (const id of items) {
        expect(received.filter((e) => e.itemId === id).map((e) => e.version)).toEqual([1, 2, 3]);
      }
    });

    it('reports health from the cluster', async () => {
      expect(await log.health()).toEqual({ ok: true });
      const unreachable = new KafkaEventLog({
        kafka: createKafkaClient({ brokers: ['127.0.0.1:1'], clientId: 'kafka-test', logger }),
        logger,
        healthTimeoutMs: 500,
      });
      const health = await unreachable.health();
      await unreachable.close();
      expect(health.ok).toBe(false);
      expect(health.reason).toMatch(/kafka/);
    });
  });
});
