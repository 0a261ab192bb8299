// @store-specific the outbox relay's reads and its leader lock (server only)
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { createSequelize, runMigrations, SKILL_CHANGES_TOPIC } from '@skills/common';
import { createTestDatabase, eventually, type TestDatabase, silentLogger } from '@skills/common/testing';
import { COLLECTIONS_SCHEMA, collectionsMigrations } from '../../src/store/migrations';
import { OutboxRelay, type OutboxPublisher, type OutboxRow } from '../../src/relay';

const logger = silentLogger('relay-test');
/** Tests that need two transactions open at once; PGlite runs one session, so only a server can show them. */
const onServer = process.env.DATABASE_URL ? it : it.skip;

/** A broker stand-in: records what it acknowledged; `next` scripts the behaviour of the coming publishes. */
class RecordingPublisher implements OutboxPublisher {
  readonly acked: OutboxRow[] = [];
  readonly journal: string[] = [];
  next: Array<'refuse' | 'ack-then-crash' | ((rows: readonly OutboxRow[]) => Promise<void>)> = [];

  async publish(rows: readonly OutboxRow[]): Promise<void> {
    this.journal.push('publish');
    const step = this.next.shift();
    if (step === 'refuse') throw new Error('broker unavailable');
    if (typeof step === 'function') await step(rows);
    this.acked.push(...rows);
    this.journal.push('acked');
    // The broker has the rows; the process dies before the mark commits.
    if (step === 'ack-then-crash') throw new Error('relay process killed');
  }

  async close(): Promise<void> {
    this.journal.push('close');
  }
}

let db: TestDatabase;
let sequelize: Sequelize;

beforeAll(async () => {
  db = await createTestDatabase();
  // PGlite's socket server can interleave the protocol messages of two busy
  // connections (a Parse of one between the Parse and Bind of another); one
  // connection keeps the background relay and the test's own queries apart.
  sequelize = createSequelize({ url: db.url, poolMax: db.kind === 'pglite' ? 1 : 4 });
  await runMigrations(sequelize, COLLECTIONS_SCHEMA, collectionsMigrations);
});
afterAll(async () => {
  await sequelize.close();
  await db.drop();
});
beforeEach(async () => {
  await sequelize.query('TRUNCATE collections.outbox');
});

/** Writes one outbox row per (item, version), each in its own transaction; returns the row ids. */
async function write(...events: Array<[itemId: string, version: number]>): Promise<string[]> {
  const ids: string[] = [];
  for (const [itemId, version] of events) ids.push(await insert(itemId, version));
  return ids;
}

async function insert(
  itemId: string,
  version: number,
  transaction?: Awaited<ReturnType<Sequelize['transaction']>>,
): Promise<string> {
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO collections.outbox (topic, key, event)
     VALUES ($1, $2, jsonb_build_object('itemId', $2::text, 'version', $3::int, 'type', 'skill.upserted'))
     RETURNING id::text AS id`,
    { bind: [SKILL_CHANGES_TOPIC, itemId, version], type: QueryTypes.SELECT, transaction },
  );
  return rows[0]!.id;
}

async function unpublished(): Promise<string[]> {
  const rows = await sequelize.query<{ id: string }>(
    'SELECT id::text AS id FROM collections.outbox o WHERE published_at IS NULL ORDER BY o.id',
    {
      type: QueryTypes.SELECT,
    },
  );
  return rows.map((r) => r.id);
}

function relay(publisher: OutboxPublisher, batchSize = 100): OutboxRelay {
  return new OutboxRelay({
    sequelize,
    publisher,
    logger,
    batchSize,
    idleMs: 20,
    retry: { initialDelayMs: 20, maxDelayMs: 100 },
  });
}

describe('OutboxRelay', () => {
  it('publishes unpublished rows oldest first, keyed by item id, and marks them published', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const ids = await write([a, 1], [b, 1], [a, 2]);
    const publisher = new RecordingPublisher();
    const sut = relay(publisher);

    expect(await sut.runOnce()).toBe(3);
    expect(publisher.acked.map((r) => r.id)).toEqual(ids);
    expect(publisher.acked.map((r) => r.key)).toEqual([a, b, a]);
    expect(publisher.acked[2]?.event).toMatchObject({ itemId: a, version: 2 });
    expect(await unpublished()).toEqual([]);

    expect(await sut.runOnce()).toBe(0);
    expect(publisher.acked).toHaveLength(3);
  });

  it('claims at most a batch per transaction, leaving the rest for the next one', async () => {
    const ids = await write([randomUUID(), 1], [randomUUID(), 1], [randomUUID(), 1]);
    const publisher = new RecordingPublisher();
    const sut = relay(publisher, 2);

    expect(await sut.runOnce()).toBe(2);
    expect(await unpublished()).toEqual([ids[2]]);
    expect(await sut.lag()).toBe(1);
  });

  it('marks nothing when the broker refuses, and publishes the same rows on the next attempt', async () => {
    const ids = await write([randomUUID(), 1], [randomUUID(), 1]);
    const publisher = new RecordingPublisher();
    publisher.next = ['refuse'];
    const sut = relay(publisher);

    await expect(sut.runOnce()).rejects.toThrow('broker unavailable');
    expect(await unpublished()).toEqual(ids);

    expect(await sut.runOnce()).toBe(2);
    expect(publisher.acked.map((r) => r.id)).toEqual(ids);
    expect(await unpublished()).toEqual([]);
  });

  it('publishes the rows again after a relay was killed between the broker ack and the mark', async () => {
    const ids = await write([randomUUID(), 1], [randomUUID(), 1]);
    const crashed = new RecordingPublisher();
    crashed.next = ['ack-then-crash'];
    await expect(relay(crashed).runOnce()).rejects.toThrow('relay process killed');
    expect(crashed.acked.map((r) => r.id)).toEqual(ids);
    expect(await unpublished()).toEqual(ids);

    const restarted = new RecordingPublisher();
    expect(await relay(restarted).runOnce()).toBe(2);
    // At least once: the broker now holds both rows twice, with the same event ids.
    expect(restarted.acked.map((r) => r.id)).toEqual(ids);
    expect(await unpublished()).toEqual([]);
  });

  it('keeps publishing in the background, backs off while the broker refuses, and reports it in health', async () => {
    const publisher = new RecordingPublisher();
    publisher.next = ['refuse', 'refuse'];
    const sut = relay(publisher);
    const ids = await write([randomUUID(), 1]);
    sut.start();
    try {
      await eventually(() => publisher.journal.filter((j) => j === 'publish').length >= 2, 'two refused attempts');
      await eventually(async () => (await unpublished()).length === 0, 'the row published');
      expect(publisher.acked.map((r) => r.id)).toEqual(ids);
      expect(sut.health()).toEqual({ ok: true });

      const later = await write([randomUUID(), 1]);
      await eventually(() => publisher.acked.length === 2, 'a row written while running');
      expect(publisher.acked[1]?.id).toBe(later[0]);
    } finally {
      await sut.stop();
    }
  });

  it('is unhealthy while batches fail', async () => {
    const publisher = new RecordingPublisher();
    publisher.next = Array.from({ length: 1_000 }, () => 'refuse' as const);
    const sut = relay(publisher);
    await write([randomUUID(), 1]);
    sut.start();
    try {
      await eventually(() => publisher.journal.length >= 1, 'a refused attempt');
      await eventually(() => !sut.health().ok, 'unhealthy');
      expect(sut.health().reason).toContain('broker unavailable');
    } finally {
      await sut.stop();
    }
  });

  it('stop() lets the batch in hand finish and mark before it disconnects the publisher', async () => {
    const publisher = new RecordingPublisher();
    let release!: () => void;
    const inHand = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const publishing = new Promise<void>((resolve) => (started = resolve));
    publisher.next = [
      async () => {
        started();
        await inHand;
      },
    ];
    const ids = await write([randomUUID(), 1], [randomUUID(), 1]);
    const sut = relay(publisher);
    sut.start();
    await publishing;
    const stopped = sut.stop();
    release();
    await stopped;

    expect(publisher.journal).toEqual(['publish', 'acked', 'close']);
    expect(publisher.acked.map((r) => r.id)).toEqual(ids);
    expect(await unpublished()).toEqual([]);
    // Stopped for good: rows written now wait for the next process.
    await write([randomUUID(), 1]);
    expect(() => sut.start()).toThrow();
  });

  onServer('lets one relay publish at a time: a second one stands by while the leader holds its batch', async () => {
    const ids = await write([randomUUID(), 1], [randomUUID(), 1]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const publishing = new Promise<void>((resolve) => (started = resolve));
    const leader = new RecordingPublisher();
    leader.next = [
      async () => {
        started();
        await held;
      },
    ];
    const standby = new RecordingPublisher();

    const leading = relay(leader).runOnce();
    await publishing;
    expect(await relay(standby).runOnce()).toBe(0);
    release();
    expect(await leading).toBe(2);

    expect(standby.acked).toEqual([]);
    expect(leader.acked.map((r) => r.id)).toEqual(ids);
  });

  onServer("keeps an item's events in version order when its later write holds the older transaction id", async () => {
    const item = randomUUID();
    // The second writer takes its txid first, then writes the item after the first writer committed.
    const second = await sequelize.transaction();
    await sequelize.query('SELECT pg_current_xact_id()', { transaction: second });
    await insert(item, 1);
    await insert(item, 2, second);
    await second.commit();

    const publisher = new RecordingPublisher();
    expect(await relay(publisher).runOnce()).toBe(2);
    expect(publisher.acked.map((r) => r.event.version)).toEqual([1, 2]);
  });
});
