import type { ProducerBatch } from 'kafkajs';
import { KafkaOutboxPublisher, type OutboxRow, type ProducerLike } from '../../src/relay';

/** A structural fake of the kafkajs producer: the broker errors the mock cluster cannot produce. */
class FakeProducer implements ProducerLike {
  readonly batches: ProducerBatch[] = [];
  readonly calls: string[] = [];
  failNext?: Error;

  async connect(): Promise<void> {
    this.calls.push('connect');
  }
  async sendBatch(batch: ProducerBatch): Promise<never[]> {
    this.calls.push('sendBatch');
    const err = this.failNext;
    this.failNext = undefined;
    if (err) throw err;
    this.batches.push(batch);
    return [];
  }
  async disconnect(): Promise<void> {
    this.calls.push('disconnect');
  }
}

function row(id: string, itemId: string, version: number, topic = 'skills.changes.v1'): OutboxRow {
  return {
    id,
    topic,
    key: itemId,
    event: {
      eventId: id,
      type: 'skill.upserted',
      itemId,
      version,
      occurredAt: '2026-01-01T00:00:00.000Z',
      item: {
        id: itemId,
        slug: 'a-skill',
        name: 'A skill',
        description: '',
        type: 'skill',
        category: null,
        tags: [],
        status: 'active',
        visibility: 'public',
        updatedAt: '2026-01-01T00:00:00.000Z',
        version,
      },
    },
  };
}

describe('KafkaOutboxPublisher', () => {
  it('sends rows in order, keyed by item id, waiting for all in-sync replicas', async () => {
    const producer = new FakeProducer();
    const sut = new KafkaOutboxPublisher(producer);
    await sut.publish([row('1', 'item-a', 1), row('2', 'item-b', 1), row('3', 'item-a', 2)]);

    expect(producer.batches).toHaveLength(1);
    const [batch] = producer.batches;
    expect(batch?.acks).toBe(-1);
    expect(batch?.topicMessages).toHaveLength(1);
    const messages = batch!.topicMessages![0]!.messages;
    expect(messages.map((m) => m.key)).toEqual(['item-a', 'item-b', 'item-a']);
    expect(messages.map((m) => JSON.parse(String(m.value)).version)).toEqual([1, 1, 2]);
    expect(messages[2]?.headers).toMatchObject({ 'event-id': '3', 'event-type': 'skill.upserted' });
  });

  it('groups rows by their topic', async () => {
    const producer = new FakeProducer();
    await new KafkaOutboxPublisher(producer).publish([
      row('1', 'a', 1, 't1'),
      row('2', 'b', 1, 't2'),
      row('3', 'c', 1, 't1'),
    ]);
    const topics = producer.batches[0]!.topicMessages!.map((t) => [t.topic, t.messages.map((m) => m.key)]);
    expect(topics).toEqual([
      ['t1', ['a', 'c']],
      ['t2', ['b']],
    ]);
  });

  it('rejects when the broker does not acknowledge, so the relay marks nothing', async () => {
    const producer = new FakeProducer();
    producer.failNext = Object.assign(new Error('Not enough in-sync replicas'), { name: 'KafkaJSProtocolError' });
    const sut = new KafkaOutboxPublisher(producer);
    await expect(sut.publish([row('1', 'a', 1)])).rejects.toThrow('Not enough in-sync replicas');
    await sut.publish([row('1', 'a', 1)]);
    expect(producer.batches).toHaveLength(1);
  });

  it('connects once, sends nothing for an empty batch and disconnects on close', async () => {
    const producer = new FakeProducer();
    const sut = new KafkaOutboxPublisher(producer);
    await sut.publish([]);
    await sut.publish([row('1', 'a', 1)]);
    await sut.publish([row('2', 'a', 2)]);
    await sut.close();
    expect(producer.calls).toEqual(['connect', 'sendBatch', 'sendBatch', 'disconnect']);
  });
});
