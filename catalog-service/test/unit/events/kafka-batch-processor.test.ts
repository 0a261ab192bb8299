import type { Batch, EachBatchPayload, KafkaMessage, Offsets } from 'kafkajs';
import { type SkillChangeEvent } from '@skills/common';
import { BatchProcessor, type DeadLetter, type RetryPolicy } from '../../../src/events/kafka/batch-processor';
import { itemVersion } from '../../support/events/event-log.conformance';
import { silentLogger } from '@skills/common/testing';

const logger = silentLogger('kafka-test');
const RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 100, maxDelayMs: 150 };

/** Items named by a letter (a, b, c…): their ids are UUIDs ending in it, as the event contract wants. */
const idOf = (letter: string) => `00000000-0000-4000-8000-00000000000${letter}`;

function event(letter: string, version: number): SkillChangeEvent {
  const itemId = idOf(letter);
  return {
    eventId: `${letter}-${version}`,
    type: 'skill.upserted',
    itemId,
    version,
    occurredAt: '2026-01-01T00:00:00.000Z',
    item: itemVersion(itemId, version),
  };
}

function message(offset: number, value: string | SkillChangeEvent): KafkaMessage {
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  return {
    key: Buffer.from('k'),
    value: Buffer.from(raw),
    timestamp: '0',
    attributes: 0,
    offset: String(offset),
    headers: { 'event-id': 'x' },
  };
}

/**
 * A structural fake of kafkajs's eachBatch payload: it records what the
 * processor resolves and commits, and lets a test play the broker's part
 * (a rebalance during a heartbeat, a consumer being stopped).
 */
class FakePayload implements EachBatchPayload {
  readonly journal: string[] = [];
  running = true;
  stale = false;
  heartbeatError?: Error;
  commitError?: Error;
  readonly batch: Batch;

  constructor(messages: KafkaMessage[]) {
    const last = messages[messages.length - 1]?.offset ?? '0';
    this.batch = {
      topic: 'skills.changes.v1',
      partition: 2,
      highWatermark: String(Number(last) + 1),
      messages,
      isEmpty: () => messages.length === 0,
      firstOffset: () => messages[0]?.offset ?? null,
      lastOffset: () => last,
      offsetLag: () => '0',
      offsetLagLow: () => '0',
    };
  }
  resolveOffset(offset: string): void {
    this.journal.push(`resolve:${offset}`);
  }
  async heartbeat(): Promise<void> {
    this.journal.push('heartbeat');
    if (this.heartbeatError) throw this.heartbeatError;
  }
  pause(): () => void {
    return () => undefined;
  }
  async commitOffsetsIfNecessary(offsets?: Offsets): Promise<void> {
    if (this.commitError) throw this.commitError;
    const p = offsets?.topics[0]?.partitions[0];
    this.journal.push(`commit:${offsets?.topics[0]?.topic}/${p?.partition}@${p?.offset}`);
  }
  uncommittedOffsets() {
    return { topics: [] };
  }
  isRunning(): boolean {
    return this.running;
  }
  isStale(): boolean {
    return this.stale;
  }
}

function setup(handler: (events: SkillChangeEvent[]) => Promise<void>, onSleep?: (ms: number) => void) {
  const letters: DeadLetter[] = [];
  const sleeps: number[] = [];
  let failLetters: Error | undefined;
  const sut = new BatchProcessor({
    group: 'indexer',
    handler,
    retry: RETRY,
    logger,
    deadLetters: {
      send: async (_group, sent) => {
        if (failLetters) throw failLetters;
        letters.push(...sent);
      },
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      onSleep?.(ms);
    },
  });
  return { sut, letters, sleeps, failDeadLetters: (err: Error) => (failLetters = err) };
}

describe('BatchProcessor (kafkajs eachBatch)', () => {
  it('commits the next offset only after the handler resolved for the whole batch', async () => {
    const journal: string[] = [];
    const payload = new FakePayload([
      message(10, event('a', 1)),
      message(11, event('b', 1)),
      message(12, event('a', 2)),
    ]);
    const { sut } = setup(async (events) => void journal.push(`handler:${events.map((e) => e.eventId).join(',')}`));
    await sut.process(payload);
    expect(journal).toEqual(['handler:a-1,b-1,a-2']);
    expect(payload.journal).toEqual(['resolve:12', 'heartbeat', 'commit:skills.changes.v1/2@13']);
  });

  it('dead-letters what is not JSON or breaks the event contract, with the reason, and applies the rest', async () => {
    const applied: SkillChangeEvent[] = [];
    const bad = { ...event('c', 1), version: 'one' };
    const unsafe = event('d', 1);
    unsafe.item.details = {
      publisher: null,
      version: null,
      license: null,
      repositoryUrl: 'javascript:alert(1)',
      homepageUrl: null,
      downloads: 0,
    };
    const extra = { ...event('e', 1), boost: 1000, item: { ...event('e', 1).item, pinned: true } };
    const payload = new FakePayload([
      message(1, '{not json'),
      message(2, event('a', 1)),
      message(3, JSON.stringify(bad)),
      message(4, unsafe),
      message(5, JSON.stringify(extra)),
    ]);
    const { sut, letters } = setup(async (events) => void applied.push(...events));
    await sut.process(payload);
    expect(applied.map((e) => e.eventId)).toEqual(['a-1', 'e-1']);
    // what the contract does not name never reaches the handler
    expect(applied[1]).not.toHaveProperty('boost');
    expect(applied[1]?.item).not.toHaveProperty('pinned');
    expect(letters.map((l) => [l.message.offset, l.reason])).toEqual([
      ['1', 'unparseable'],
      ['3', 'contract'],
      ['4', 'contract'],
    ]);
    expect(letters[0]?.detail).toMatch(/^not JSON/);
    expect(letters[1]?.detail).toContain('version must be an integer');
    expect(letters[2]?.detail).toContain('item.details.repositoryUrl must be an http or https URL');
    expect(payload.journal).toContain('commit:skills.changes.v1/2@6');
  });

  it('retries a failing batch with growing, capped delays and heartbeats in between', async () => {
    let calls = 0;
    const payload = new FakePayload([message(5, event('a', 1))]);
    const { sut, sleeps } = setup(async () => {
      calls += 1;
      if (calls < 3) throw new Error('search engine unavailable');
    });
    await sut.process(payload);
    expect(calls).toBe(3);
    expect(sleeps).toEqual([100, 150]);
    expect(payload.journal).toEqual([
      'heartbeat',
      'heartbeat',
      'resolve:5',
      'heartbeat',
      'commit:skills.changes.v1/2@6',
    ]);
  });

  it('keeps retrying a batch past the last attempt and never dead-letters what the handler refuses (the indexer decides what is poison)', async () => {
    let calls = 0;
    const payload = new FakePayload([message(7, event('a', 1)), message(8, event('f', 1))]);
    const { sut, letters, sleeps } = setup(async () => {
      calls += 1;
      if (calls < 7) throw new TypeError('search engine unavailable');
    });
    await sut.process(payload);
    expect(calls).toBe(7);
    expect(letters).toEqual([]);
    expect(sleeps).toEqual([100, 150, 150, 150, 150, 150]);
    expect(payload.journal.slice(-1)).toEqual(['commit:skills.changes.v1/2@9']);
  });

  it('gives the batch up uncommitted when a rebalance takes the partition during a retry', async () => {
    const payload = new FakePayload([message(3, event('a', 1))]);
    payload.heartbeatError = Object.assign(new Error('The group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' });
    const { sut } = setup(async () => {
      throw new Error('search engine unavailable');
    });
    await expect(sut.process(payload)).rejects.toThrow('rebalancing');
    expect(payload.journal.filter((j) => j.startsWith('resolve') || j.startsWith('commit'))).toEqual([]);
  });

  it('stops retrying without resolving anything when the consumer is being stopped', async () => {
    let calls = 0;
    const payload = new FakePayload([message(3, event('a', 1))]);
    const { sut, letters } = setup(
      async () => {
        calls += 1;
        throw new Error('search engine unavailable');
      },
      () => {
        payload.running = false;
      },
    );
    await sut.process(payload);
    expect(calls).toBe(1);
    expect(letters).toEqual([]);
    expect(payload.journal.filter((j) => j.startsWith('resolve') || j.startsWith('commit'))).toEqual([]);
  });

  it('abandons a batch made stale by a seek', async () => {
    const payload = new FakePayload([message(3, event('a', 1))]);
    payload.stale = true;
    const handler = jest.fn(async () => undefined);
    const { sut } = setup(handler);
    await sut.process(payload);
    expect(handler).not.toHaveBeenCalled();
    expect(payload.journal).toEqual([]);
  });

  it('does not move the offset past a message the dead-letter topic did not acknowledge', async () => {
    const payload = new FakePayload([message(1, 'garbage'), message(2, event('a', 1))]);
    const { sut, failDeadLetters } = setup(async () => undefined);
    failDeadLetters(new Error('Broker: Not enough in-sync replicas'));
    await expect(sut.process(payload)).rejects.toThrow('in-sync replicas');
    expect(payload.journal).toEqual([]);
  });

  it('surfaces a failed commit, so kafkajs restarts from the last committed offset', async () => {
    const payload = new FakePayload([message(4, event('a', 1))]);
    payload.commitError = Object.assign(new Error('Specified group generation id is not valid'), {
      type: 'ILLEGAL_GENERATION',
    });
    const { sut } = setup(async () => undefined);
    await expect(sut.process(payload)).rejects.toThrow('generation');
  });
});
