/**
 * kafkajs 2.2.4, as our two adapters drive it, against a real broker
 * (KAFKA_BROKERS; `local-servers/kafka.sh start` runs Kafka 4.4.0). Kafka 4.0
 * removed the protocol versions older than KIP-896's baseline (e.g. Produce
 * v0-v2, Fetch v0-v3, JoinGroup v0-v1, OffsetCommit v0-v1) and kafkajs
 * predates that, so each step of our subset is checked on the wire: the relay's
 * produce with acks -1, the indexer's group consumption and manual commit, and
 * a rebalance between two members of one group. Skipped without KAFKA_BROKERS.
 */
import { randomUUID } from 'node:crypto';
import type { Consumer, ConsumerConfig, Kafka } from 'kafkajs';
import { type EventSubscription, type SkillChangeEvent } from '@skills/common';
import { createKafkaClient as createClient } from '@skills/common/kafka';
import { createKafkaProducer, KafkaOutboxPublisher } from '../../../../collections-service/src/relay';
import { KafkaEventLog, type KafkaLike } from '../../../src/events/kafka';
import { REFUSE_NOTHING } from '../../support/rejected-events';

import { FAST_GROUP } from '../../support/events/kafka-mock-cluster';
import { createTopic, outboxRow, plaintextBrokers as brokers } from '../../support/events/kafka-live-env';
import { eventually, silentLogger } from '@skills/common/testing';

const logger = silentLogger('kafka-live-test');
const describeLive = brokers.length > 0 ? describe : describe.skip;
const PARTITIONS = 6; // docker-compose.yml's and kafka.sh's num.partitions

/** The real client, whose consumers report each assignment they are given (kafkajs's GROUP_JOIN event). */
function recordingKafka(onJoin: (partitions: number[]) => void): KafkaLike {
  const kafka: Kafka = createClient({ brokers, clientId: 'live-group', logger });
  return {
    producer: (config) => kafka.producer(config),
    admin: () => kafka.admin(),
    consumer: (config: ConsumerConfig) => {
      const consumer: Consumer = kafka.consumer(config);
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => onJoin(Object.values(payload.memberAssignment).flat()));
      return consumer;
    },
  };
}

/** A member of a consumer group through the indexer's EventLog: what it was handed, and what it holds since the last rebalance. */
class Member {
  readonly events: SkillChangeEvent[] = [];
  assigned: number[] = [];
  private readonly log: KafkaEventLog;
  private subscription?: EventSubscription;

  constructor(topic: string) {
    this.log = new KafkaEventLog({
      kafka: recordingKafka((partitions) => (this.assigned = [...partitions].sort((x, y) => x - y))),
      logger,
      topic,
      rejected: REFUSE_NOTHING,
      ...FAST_GROUP,
    });
  }

  async join(group: string): Promise<this> {
    this.subscription = await this.log.subscribe(group, async (events) => void this.events.push(...events));
    return this;
  }

  lag(): Promise<number | undefined> {
    return this.subscription ? this.subscription.lag() : Promise.resolve(undefined);
  }

  /** Leaves the group after the batch in hand (its commit included). */
  leave(): Promise<void> {
    return this.log.close();
  }
}

describeLive('kafkajs on the broker in KAFKA_BROKERS', () => {
  let topic: string;
  let publisher: KafkaOutboxPublisher;
  const members: Member[] = [];
  const admin = createClient({ brokers, clientId: 'live-group-admin', logger }).admin();

  const publish = async (count: number): Promise<string[]> => {
    const rows = Array.from({ length: count }, () => outboxRow(topic));
    await publisher.publish(rows);
    return rows.map((r) => r.event.eventId);
  };

  const join = (group: string): Promise<Member> => {
    const member = new Member(topic);
    members.push(member);
    return member.join(group);
  };
  const idsOf = (...of: Member[]): string[] => of.flatMap((m) => m.events.map((e) => e.eventId));

  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());
  beforeEach(async () => {
    topic = `skills.changes.v1.test-${randomUUID()}`;
    await createTopic(admin, topic, PARTITIONS);
    publisher = new KafkaOutboxPublisher(createKafkaProducer({ brokers, clientId: 'live-relay', logger }));
  });
  afterEach(async () => {
    await Promise.all(members.splice(0).map((m) => m.leave()));
    await publisher.close();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  });

  it('hands a group every event the relay published with acks -1, and a restarted member only what came after its commit', async () => {
    const group = `live-${randomUUID()}`;
    const first = await publish(30);
    const before = await join(group);
    await eventually(() => before.events.length >= first.length, '30 events');
    expect(idsOf(before).sort()).toEqual([...first].sort());
    // the offsets were committed: nothing is left for the group
    await eventually(async () => (await before.lag()) === 0, 'a lag of 0');
    await before.leave();

    const later = await publish(5);
    const after = await join(group);
    await eventually(() => after.events.length >= later.length, '5 events after the restart');
    // a fetch from the committed offsets returns the new events behind any old ones: let one more round pass
    await new Promise((r) => setTimeout(r, 1_000));
    expect(idsOf(after).sort()).toEqual([...later].sort());
  });

  it('moves partitions between two members of one group without losing or repeating an event', async () => {
    const group = `live-${randomUUID()}`;
    const a = await join(group);
    const batch1 = await publish(60);
    await eventually(() => a.events.length >= batch1.length, 'the first member to read the first 60');
    await eventually(async () => (await a.lag()) === 0, 'the first 60 committed');
    expect(a.assigned).toEqual([0, 1, 2, 3, 4, 5]);

    const b = await join(group);
    await eventually(
      () =>
        b.assigned.length > 0 &&
        a.assigned.length + b.assigned.length === PARTITIONS &&
        !a.assigned.some((p) => b.assigned.includes(p)),
      'the partitions split between the two members',
    );
    const batch2 = await publish(60);
    await eventually(() => idsOf(a, b).length >= batch1.length + batch2.length, 'the second 60');
    expect(b.events.length).toBeGreaterThan(0);

    const bRead = b.events.length;
    await b.leave();
    await eventually(() => a.assigned.length === PARTITIONS, 'the first member to take every partition back');
    const batch3 = await publish(60);
    await eventually(() => idsOf(a, b).length >= 180, 'the third 60');
    await new Promise((r) => setTimeout(r, 1_000));

    const seen = idsOf(a, b);
    expect(new Set(seen)).toEqual(new Set([...batch1, ...batch2, ...batch3]));
    // Every rebalance here happens with nothing in flight and after a commit, so
    // at-least-once has nothing to repeat: a repeat would mean a lost commit.
    expect(seen).toHaveLength(180);
    expect(b.events).toHaveLength(bRead);
  });
});
