/**
 * Behaviour every EventLog must show (common/src/events.ts): ordered,
 * at-least-once delivery per consumer group, positions that survive a
 * restart, failed batches retried rather than skipped. Each adapter's test
 * calls `describeEventLogConformance` with storage of its own.
 */
import { randomUUID } from 'node:crypto';
import type { CatalogItemState, EventLog, EventSubscription, SkillChangeEvent } from '@skills/common';
import { eventually } from '@skills/common/testing';

export interface EventLogUnderTest {
  /** A new EventLog over the same storage (a second call models a restart). Retries should be fast. */
  createLog(): Promise<EventLog>;
  /** Publishes one `skill.upserted` event per item, in order, each committed on its own. */
  publish(items: CatalogItemState[]): Promise<void>;
  teardown(): Promise<void>;
}

export function itemVersion(id: string, version: number): CatalogItemState {
  return {
    id,
    slug: `item-${id.slice(0, 8)}`,
    name: `Item v${version}`,
    description: '',
    type: 'skill',
    category: 'general',
    tags: [],
    status: 'active',
    visibility: 'public',
    updatedAt: new Date(Date.UTC(2026, 0, 1, 0, version)).toISOString(),
    version,
  };
}

const label = (e: SkillChangeEvent) => `${e.itemId.slice(0, 4)}@${e.version}`;
const labelOf = (i: CatalogItemState) => `${i.id.slice(0, 4)}@${i.version}`;

export function describeEventLogConformance(name: string, setup: () => Promise<EventLogUnderTest>): void {
  describe(`${name} (EventLog conformance)`, () => {
    let env: EventLogUnderTest;
    const logs: EventLog[] = [];
    const subscriptions: EventSubscription[] = [];
    const open = async () => {
      const log = await env.createLog();
      logs.push(log);
      return log;
    };
    const subscribe = async (log: EventLog, group: string, handler: (events: SkillChangeEvent[]) => Promise<void>) => {
      const sub = await log.subscribe(group, handler);
      subscriptions.push(sub);
      return sub;
    };

    beforeEach(async () => {
      env = await setup();
    });
    afterEach(async () => {
      for (const sub of subscriptions.splice(0)) await sub.stop();
      for (const log of logs.splice(0)) await log.close();
      await env.teardown();
    });

    it('delivers every event once to a group, in publication order, with its full item state', async () => {
      const a = randomUUID();
      const b = randomUUID();
      const published = [itemVersion(a, 1), itemVersion(b, 1), itemVersion(a, 2), itemVersion(b, 2), itemVersion(a, 3)];
      const received: SkillChangeEvent[] = [];
      await subscribe(await open(), 'g-order', async (events) => void received.push(...events));
      await env.publish(published);
      await eventually(() => received.length >= published.length, 'five events');
      expect(received.map(label)).toEqual(published.map(labelOf));
      expect(received[4]?.item).toEqual(published[4]);
      expect(received[0]?.type).toBe('skill.upserted');
      expect(new Set(received.map((e) => e.eventId)).size).toBe(5);
    });

    it('feeds every group the whole stream independently', async () => {
      const published = [itemVersion(randomUUID(), 1), itemVersion(randomUUID(), 1)];
      const one: string[] = [];
      const two: string[] = [];
      const log = await open();
      await subscribe(log, 'g-one', async (events) => void one.push(...events.map(label)));
      await subscribe(log, 'g-two', async (events) => void two.push(...events.map(label)));
      await env.publish(published);
      await eventually(() => one.length >= 2 && two.length >= 2, 'both groups');
      expect(one).toEqual(published.map(labelOf));
      expect(two).toEqual(published.map(labelOf));
    });

    it('resumes after a restart from the stored position, without loss or replay', async () => {
      const first = [itemVersion(randomUUID(), 1), itemVersion(randomUUID(), 1), itemVersion(randomUUID(), 1)];
      const later = [itemVersion(randomUUID(), 1), itemVersion(randomUUID(), 1)];
      const before: string[] = [];
      const log = await open();
      const sub = await log.subscribe('g-restart', async (events) => void before.push(...events.map(label)));
      await env.publish(first);
      await eventually(() => before.length >= 3, 'the first three events');
      await sub.stop();
      await log.close();
      await env.publish(later);
      const after: string[] = [];
      await subscribe(await open(), 'g-restart', async (events) => void after.push(...events.map(label)));
      await eventually(() => after.length >= 2, 'the two later events');
      expect(before).toEqual(first.map(labelOf));
      // Every batch before the restart was committed, so nothing of it comes again.
      expect(after).toEqual(later.map(labelOf));
    });

    it('retries a batch whose handler failed instead of skipping it', async () => {
      const published = [itemVersion(randomUUID(), 1), itemVersion(randomUUID(), 1)];
      let attempts = 0;
      const received: string[] = [];
      await subscribe(await open(), 'g-retry', async (events) => {
        attempts += 1;
        if (attempts <= 2) throw new Error('search engine unavailable');
        received.push(...events.map(label));
      });
      await env.publish(published);
      await eventually(() => received.length >= 2, 'the events after two failures');
      expect(attempts).toBeGreaterThanOrEqual(3);
      expect(received.slice(0, 2)).toEqual(published.map(labelOf));
    });

    it('counts events the group has not consumed yet as lag, when the log can tell', async () => {
      let calls = 0;
      const sub = await subscribe(await open(), 'g-lag', async () => {
        calls += 1;
        throw new Error('never succeeds');
      });
      await env.publish([itemVersion(randomUUID(), 1), itemVersion(randomUUID(), 1)]);
      await eventually(() => calls >= 1, 'a delivery attempt');
      const lag = await sub.lag();
      if (lag !== undefined) expect(lag).toBe(2);
    });
  });
}
