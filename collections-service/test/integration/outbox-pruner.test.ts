// @store-specific the outbox pruner's deletes and its lock (server only)
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { QueryTypes, type Sequelize } from 'sequelize';
import {
  createSequelize,
  runMigrations,
  ServiceUnavailableError,
  SKILL_CHANGES_TOPIC,
  type SkillChangeEvent,
} from '@skills/common';
import { createTestDatabase, eventually, type TestDatabase, silentLogger } from '@skills/common/testing';
import { COLLECTIONS_SCHEMA, collectionsMigrations } from '../../src/store/migrations';
import { OutboxRelay } from '../../src/relay';
import { OutboxPruner, type OutboxPrunerOptions, type OutboxPruneRule } from '../../src/retention';
// The positions the pruner trusts are written by catalog-service's consumer: its own
// migration and consumer, not a copy, keep this test true to them.
import { CATALOG_SCHEMA, catalogMigrations } from '../../../catalog-service/src/store/migrations';
import { PostgresEventLog } from '../../../catalog-service/src/events/postgres-event-log';

const logger = silentLogger('pruner-test');
/** Tests that need two transactions open at once; PGlite runs one session, so only a server can show them. */
const onServer = process.env.DATABASE_URL ? it : it.skip;
const HOUR_MS = 3_600_000;

let db: TestDatabase;
let sequelize: Sequelize;

beforeAll(async () => {
  db = await createTestDatabase();
  // One connection on PGlite: its socket server can interleave two busy connections' messages (see relay.test.ts).
  sequelize = createSequelize({ url: db.url, poolMax: db.kind === 'pglite' ? 1 : 4 });
  await runMigrations(sequelize, COLLECTIONS_SCHEMA, collectionsMigrations);
  await runMigrations(sequelize, CATALOG_SCHEMA, catalogMigrations);
});
afterAll(async () => {
  await sequelize.close();
  await db.drop();
});
beforeEach(async () => {
  await sequelize.query('TRUNCATE collections.outbox; TRUNCATE catalog.event_positions');
});

interface Row {
  id: string;
  txid: string;
}

/** An event of the contract for item $3, as the consumer of the last test accepts it. */
const INSERT = `INSERT INTO collections.outbox (txid, topic, key, event)
  VALUES (COALESCE($1::xid8, pg_current_xact_id()), $2, $3, jsonb_build_object('eventId', '', 'itemId', $3::text, 'version', 1, 'type', 'skill.upserted',
    'occurredAt', '2026-01-01T00:00:00.000Z', 'item', jsonb_build_object('id', $3::text, 'slug', null, 'name', 'Item', 'description', '',
    'type', 'skill', 'category', null, 'tags', '[]'::jsonb, 'status', 'active', 'visibility', 'private', 'updatedAt', '2026-01-01T00:00:00.000Z', 'version', 1)))
  RETURNING id::text AS id, txid::text AS txid`;

/** One outbox row in its own transaction; `txid` forces the writing transaction id (a writer still in flight). */
async function insert(txid: string | null = null): Promise<Row> {
  const [row] = await sequelize.query<Row>(INSERT, {
    type: QueryTypes.SELECT,
    bind: [txid, SKILL_CHANGES_TOPIC, randomUUID()],
  });
  return row!;
}

async function rows(count: number): Promise<Row[]> {
  const written: Row[] = [];
  for (let i = 0; i < count; i += 1) written.push(await insert());
  return written;
}

/** Moves the rows' `created_at` back, as if they had been written that long ago. */
async function age(written: Row[], ms: number): Promise<void> {
  await sequelize.query(
    "UPDATE collections.outbox SET created_at = created_at - $2::bigint * interval '1 millisecond' WHERE id = ANY($1::bigint[])",
    {
      bind: [written.map((r) => r.id), ms],
    },
  );
}

async function markPublished(written: Row[]): Promise<void> {
  await sequelize.query('UPDATE collections.outbox SET published_at = now() WHERE id = ANY($1::bigint[])', {
    bind: [written.map((r) => r.id)],
  });
}

/** Saves a group's position as catalog-service's consumer does after handling a batch that ended with `row`. */
async function position(group: string, row: Row): Promise<void> {
  await sequelize.query(
    `INSERT INTO catalog.event_positions (group_name, last_txid, last_id) VALUES ($1, $2::xid8, $3::bigint)
     ON CONFLICT (group_name) DO UPDATE SET last_txid = EXCLUDED.last_txid, last_id = EXCLUDED.last_id`,
    { bind: [group, row.txid, row.id] },
  );
}

async function remaining(): Promise<string[]> {
  const left = await sequelize.query<{ id: string }>(
    'SELECT o.id::text AS id FROM collections.outbox o ORDER BY o.id',
    { type: QueryTypes.SELECT },
  );
  return left.map((r) => r.id);
}

const ids = (written: Row[]) => written.map((r) => r.id);

function pruner(rule: OutboxPruneRule, options: Partial<OutboxPrunerOptions> = {}): OutboxPruner {
  return new OutboxPruner({ sequelize, logger, rule, retentionMs: HOUR_MS, intervalMs: 20, ...options });
}

describe('OutboxPruner, EVENT_LOG=kafka (rule "published")', () => {
  it('deletes published rows older than the retention, and keeps unpublished or younger ones', async () => {
    const [oldA, oldB, young, unpublished] = (await rows(4)) as [Row, Row, Row, Row];
    await markPublished([oldA, oldB, young]);
    await age([oldA, oldB, unpublished], 2 * HOUR_MS);

    expect(await pruner('published').runOnce()).toBe(2);
    expect(await remaining()).toEqual(ids([young, unpublished]));
  });

  it('deletes a row only once the relay has had it acknowledged', async () => {
    const written = await rows(2);
    const sut = pruner('published', { retentionMs: 0 });
    expect(await sut.runOnce()).toBe(0);

    const refusing = new OutboxRelay({
      sequelize,
      logger,
      publisher: { publish: () => Promise.reject(new Error('broker down')), close: async () => {} },
    });
    await expect(refusing.runOnce()).rejects.toThrow('broker down');
    expect(await sut.runOnce()).toBe(0);
    expect(await remaining()).toEqual(ids(written));

    const acking = new OutboxRelay({
      sequelize,
      logger,
      publisher: { publish: async () => {}, close: async () => {} },
    });
    expect(await acking.runOnce()).toBe(2);
    expect(await sut.runOnce()).toBe(2);
    expect(await remaining()).toEqual([]);
  });

  it('deletes at most a batch per transaction', async () => {
    const written = await rows(3);
    await markPublished(written);
    await age(written, 2 * HOUR_MS);
    const sut = pruner('published', { batchSize: 2 });

    expect(await sut.runOnce()).toBe(2);
    expect(await remaining()).toEqual(ids(written.slice(2)));
    expect(await sut.runOnce()).toBe(1);
    expect(await sut.runOnce()).toBe(0);
  });

  it('prunes in the background, batch after batch, and reports what it deleted', async () => {
    const written = await rows(5);
    await markPublished(written);
    await age(written, 2 * HOUR_MS);
    const pruned: number[] = [];
    const sut = pruner('published', { batchSize: 2, onPruned: (n) => void pruned.push(n) });
    sut.start();
    try {
      await eventually(async () => (await remaining()).length === 0, 'an empty outbox');
      await eventually(() => pruned.length === 3, 'three batches');
      expect(pruned).toEqual([2, 2, 1]);
    } finally {
      await sut.stop();
    }
    // a stopped pruner stays stopped: starting it again is refused as the service shutting down
    let refused: unknown;
    try {
      sut.start();
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ServiceUnavailableError);
    expect(refused).toMatchObject({ messageKey: 'server.shuttingDown' });
  });
});

describe('OutboxPruner, EVENT_LOG=postgres (rule "consumed")', () => {
  it('deletes only rows every registered consumer group has read past, once older than the retention', async () => {
    const written = await rows(4);
    const [r1, r2, r3, r4] = written as [Row, Row, Row, Row];
    await age([r1, r2, r3], 2 * HOUR_MS);
    await position('catalog-indexer', r3);
    await position('slow-group', r1);
    const sut = pruner('consumed');

    expect(await sut.runOnce()).toBe(1);
    expect(await remaining()).toEqual(ids([r2, r3, r4]));

    // The slow group catches up; r4 is past both groups but younger than the retention.
    await position('slow-group', r4);
    await position('catalog-indexer', r4);
    expect(await sut.runOnce()).toBe(2);
    expect(await remaining()).toEqual(ids([r4]));
    expect(await pruner('consumed', { retentionMs: 0 }).runOnce()).toBe(1);
    expect(await remaining()).toEqual([]);
  });

  it('deletes nothing while no consumer group is registered, nor before catalog-service has migrated', async () => {
    const written = await rows(2);
    await age(written, 2 * HOUR_MS);

    expect(await pruner('consumed').runOnce()).toBe(0);
    await sequelize.query('ALTER TABLE catalog.event_positions RENAME TO event_positions_away');
    try {
      expect(await pruner('consumed').runOnce()).toBe(0);
    } finally {
      await sequelize.query('ALTER TABLE catalog.event_positions_away RENAME TO event_positions');
    }
    expect(await remaining()).toEqual(ids(written));
    // the same rows go once a group has read past them: it was the missing group that kept them
    await position('catalog-indexer', written[1]!);
    expect(await pruner('consumed').runOnce()).toBe(2);
  });

  it('keeps a row that committed late with a lower id than a row every group has passed', async () => {
    // The late writer took its outbox id first but its transaction id is above every
    // saved position (groups read only below the oldest transaction in flight).
    const late = await insert(await futureTxid(1_000_000));
    const early = await insert();
    expect(Number(late.id)).toBeLessThan(Number(early.id));
    await age([late, early], 2 * HOUR_MS);
    await position('catalog-indexer', early);

    // A rule on ids alone (id <= last_id) would delete `late` here, before any group read it.
    expect(await pruner('consumed', { retentionMs: 0 }).runOnce()).toBe(1);
    expect(await remaining()).toEqual([late.id]);

    await position('catalog-indexer', late);
    expect(await pruner('consumed', { retentionMs: 0 }).runOnce()).toBe(1);
    expect(await remaining()).toEqual([]);
  });

  it("loses no late commit to the pruner while catalog-service's consumer reads the outbox", async () => {
    const received: string[] = [];
    const log = new PostgresEventLog({
      sequelize,
      logger,
      pollIntervalMs: 20,
      retryMinMs: 10,
      retryMaxMs: 50,
      rejected: { reject: async () => Promise.reject(new Error('every event here keeps the contract')) },
    });
    const subscribe = () =>
      log.subscribe(
        'g-late',
        async (events: SkillChangeEvent[]) => void received.push(...events.map((e) => e.eventId)),
      );
    const sut = pruner('consumed', { retentionMs: 0 });
    const positionPast = async (row: Row) => {
      const [saved] = await sequelize.query<{ past: boolean }>(
        "SELECT (last_txid, last_id) >= ($1::xid8, $2::bigint) AS past FROM catalog.event_positions WHERE group_name = 'g-late'",
        { type: QueryTypes.SELECT, bind: [row.txid, row.id] },
      );
      return saved?.past === true;
    };
    let late: Row;
    let early: Row;
    try {
      if (db.kind === 'postgres') {
        // The late writer takes the lower outbox id and stays open; the other commits a higher id first.
        const [lateTx, otherTx] = [new Client({ connectionString: db.url }), new Client({ connectionString: db.url })];
        await lateTx.connect();
        await otherTx.connect();
        try {
          await otherTx.query('BEGIN');
          await otherTx.query('SELECT pg_current_xact_id()');
          await lateTx.query('BEGIN');
          late = (await lateTx.query<Row>(INSERT, [null, SKILL_CHANGES_TOPIC, randomUUID()])).rows[0]!;
          early = (await otherTx.query<Row>(INSERT, [null, SKILL_CHANGES_TOPIC, randomUUID()])).rows[0]!;
          await otherTx.query('COMMIT');
          const reading = await subscribe();
          await eventually(() => positionPast(early), 'the committed row read');
          expect(await sut.runOnce()).toBe(1);
          // The consumer pauses while the late row commits, so "not read yet" below is certain, not a race with its poll.
          await reading.stop();
          await lateTx.query('COMMIT');
        } finally {
          await lateTx.end();
          await otherTx.end();
        }
      } else {
        // PGlite cannot interleave transactions: a row whose txid is above the oldest
        // in-flight bound is what an open writer's row would be.
        late = await insert(await futureTxid());
        early = await insert();
        await subscribe();
        await eventually(() => positionPast(early), 'the committed row read');
        expect(await sut.runOnce()).toBe(1);
      }
      expect(Number(late.id)).toBeLessThan(Number(early.id));
      // Visible now, below the group's last id, and not read yet: it must stay.
      expect(await sut.runOnce()).toBe(0);
      expect(await remaining()).toEqual([late.id]);
      if (db.kind === 'postgres') await subscribe();

      await eventually(async () => {
        await sequelize.query('SELECT pg_current_xact_id()'); // on PGlite, moves transaction ids past the late row's
        return positionPast(late);
      }, 'the late row read');
      expect(await sut.runOnce()).toBe(1);
      expect(await remaining()).toEqual([]);
      expect(received).toEqual([early.id, late.id]);
    } finally {
      await log.close();
    }
  });

  onServer('lets one replica prune at a time: the others skip the pass', async () => {
    const written = await rows(2);
    await position('catalog-indexer', written[1]!);
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query("SELECT pg_advisory_xact_lock(hashtext('collections.outbox-pruner'))");
      expect(await pruner('consumed', { retentionMs: 0 }).runOnce()).toBe(0);
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    expect(await pruner('consumed', { retentionMs: 0 }).runOnce()).toBe(2);
  });
});

/**
 * A transaction id `ahead` ids above the oldest one in flight: what an open
 * writer's row would carry. A test that later needs the ids to move past it
 * keeps `ahead` small; one that only compares positions takes a large one, so
 * no other write in between can overtake it.
 */
async function futureTxid(ahead = 40): Promise<string> {
  const [row] = await sequelize.query<{ txid: string }>(
    'SELECT (pg_snapshot_xmin(pg_current_snapshot())::text::bigint + $1::bigint)::text AS txid',
    {
      type: QueryTypes.SELECT,
      bind: [ahead],
    },
  );
  return row!.txid;
}
