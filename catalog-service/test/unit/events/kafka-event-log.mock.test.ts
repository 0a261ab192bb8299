import { Partitioners, type Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { type SkillChangeEvent } from '@skills/common';
import { createKafkaClient, KafkaEventLog } from '../../../src/events/kafka';
import { REFUSE_NOTHING, recordingSink } from '../../support/rejected-events';
import { describeEventLogConformance, itemVersion } from '../../support/events/event-log.conformance';
import {
  eventFor,
  FAST_GROUP,
  mockClusterModule,
  startMockCluster,
  type MockCluster,
} from '../../support/events/kafka-mock-cluster';
import { eventually, silentLogger } from '@skills/common/testing';

const logger = silentLogger('kafka-test');

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
          rejected: REFUSE_NOTHING,
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
    let sink: ReturnType<typeof recordingSink>;
    const client = () => createKafkaClient({ brokers: cluster.brokers, clientId: 'kafka-test', logger });

    beforeEach(async () => {
      cluster = await startMockCluster();
      producer = client().producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      sink = recordingSink();
      log = new KafkaEventLog({
        kafka: client(),
        logger,
        rejected: sink,
        ...FAST_GROUP,
        retry: { attempts: 2, initialDelayMs: 50, maxDelayMs: 50 },
      });
    });
    afterEach(async () => {
      await log.close();
      await producer.disconnect();
      await cluster.stop();
    });

    const send = (messages: { key: string; value: string; partition?: number }[]) =>
      producer.send({ topic: 'skills.changes.v1', acks: -1, messages });

    it('dead-letters what is not JSON or breaks the contract into the store, never producing; a refused event is retried, not dead-lettered', async () => {
      const poison = itemVersion(randomUUID(), 1);
      const good = itemVersion(randomUUID(), 1);
      const pinned = { ...eventFor(itemVersion(randomUUID(), 1)), version: 2_147_483_648 };
      const unsafe = eventFor({
        ...itemVersion(randomUUID(), 1),
        details: {
          publisher: null,
          version: null,
          license: null,
          repositoryUrl: null,
          homepageUrl: 'javascript:alert(1)',
          downloads: 0,
        },
      });
      await send([
        { key: 'garbage', value: '{"not": "an event"', partition: 0 },
        { key: pinned.itemId, value: JSON.stringify(pinned), partition: 0 },
        { key: unsafe.itemId, value: JSON.stringify(unsafe), partition: 0 },
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
      await eventually(
        () => sink.rejected.length >= 3 && applied.length >= 2,
        'three dead letters and both events applied',
      );
      expect(applied).toEqual([poison.id, good.id]);
      expect(refusals).toBe(2);
      expect(sink.rejected.map((r) => [r.group, r.eventId, r.itemId, r.reason.split(':')[0]])).toEqual([
        ['indexer', 'kafka:skills.changes.v1/0@0', 'garbage', 'unparseable'],
        ['indexer', pinned.eventId, pinned.itemId, 'contract'],
        ['indexer', unsafe.eventId, unsafe.itemId, 'contract'],
      ]);
      expect(sink.rejected[0]?.payload).toEqual({
        base64: Buffer.from('{"not": "an event"').toString('base64'),
        bytes: 18,
      });
      expect(sink.rejected[1]?.reason).toContain('version must be an integer from 0 to 2147483647');
      expect(sink.rejected[2]?.reason).toContain('homepageUrl must be an http or https URL');
      expect(sink.rejected[2]?.payload).toEqual(unsafe);
      // The group moved past all five messages.
      await eventually(async () => (await sub.lag()) === 0, 'no lag');
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
        rejected: REFUSE_NOTHING,
        healthTimeoutMs: 500,
      });
      const health = await unreachable.health();
      await unreachable.close();
      expect(health.ok).toBe(false);
      expect(health.reason).toMatch(/kafka/);
    });
  });
});
