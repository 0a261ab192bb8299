// @store-specific the Postgres event log's reads; a late commit is seen differently by each store
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import {
  SKILL_CHANGES_TOPIC,
  createSequelize,
  runMigrations,
  type CatalogItemState,
  type SkillChangeEvent,
} from '@skills/common';
import { createTestDatabase, eventually, type TestDatabase, silentLogger } from '@skills/common/testing';
import { collectionsMigrations } from '../../../../collections-service/src/store/migrations';
import { PostgresEventLog } from '../../../src/events/postgres-event-log';
import { catalogMigrations } from '../../../src/store/migrations';
import { describeEventLogConformance, itemVersion } from '../../support/events/event-log.conformance';
import { REFUSE_NOTHING } from '../../support/rejected-events';

let db: TestDatabase;
let sequelize: Sequelize;
const logger = silentLogger();

beforeAll(async () => {
  db = await createTestDatabase();
  sequelize = createSequelize({ url: db.url });
  await runMigrations(sequelize, 'collections', collectionsMigrations);
  await runMigrations(sequelize, 'catalog', catalogMigrations);
});

afterAll(async () => {
  await sequelize.close();
  await db.drop();
});

function eventOf(item: CatalogItemState): SkillChangeEvent {
  return {
    eventId: '',
    type: 'skill.upserted',
    itemId: item.id,
    version: item.version,
    occurredAt: item.updatedAt,
    item,
  };
}

const INSERT_OUTBOX =
  'INSERT INTO collections.outbox (topic, key, event) VALUES ($1, $2, $3::jsonb) RETURNING id::text AS id';

async function publish(items: CatalogItemState[]): Promise<void> {
  for (const item of items) {
    await sequelize.query(INSERT_OUTBOX, { bind: [SKILL_CHANGES_TOPIC, item.id, JSON.stringify(eventOf(item))] });
  }
}

function createLog(onPoll?: (group: string, delivered: number) => void, batchSize?: number): PostgresEventLog {
  return new PostgresEventLog({
    sequelize,
    logger,
    rejected: REFUSE_NOTHING,
    listenUrl: db.url,
    pollIntervalMs: 20,
    retryMinMs: 10,
    retryMaxMs: 50,
    onPoll,
    batchSize,
  });
}

describeEventLogConformance('PostgresEventLog', async () => {
  await sequelize.query('TRUNCATE collections.outbox; TRUNCATE catalog.event_positions');
  return { createLog: async () => createLog(), publish, teardown: async () => {} };
});

describe('PostgresEventLog ordering across concurrent writers', () => {
  let log: PostgresEventLog;
  let polls = 0;

  beforeEach(async () => {
    await sequelize.query('TRUNCATE collections.outbox; TRUNCATE catalog.event_positions');
    polls = 0;
    log = createLog(() => void (polls += 1));
  });
  afterEach(async () => {
    await log.close();
  });

  /** Waits for a few more complete reads, so "nothing was delivered" means the consumer looked and held back. */
  const severalPollsLater = async () => {
    const target = polls + 3;
    await eventually(() => polls >= target, 'three more reads');
  };

  it('never passes a row whose transaction commits after a later row', async () => {
    const early = itemVersion(randomUUID(), 1);
    const late = itemVersion(randomUUID(), 1);
    const received: string[] = [];
    const handler = async (events: SkillChangeEvent[]) => void received.push(...events.map((e) => e.itemId));

    if (db.kind === 'postgres') {
      // T1 takes the lower outbox id and stays open; T2 takes a higher id and commits first.
      const t1 = new Client({ connectionString: db.url });
      const t2 = new Client({ connectionString: db.url });
      await t1.connect();
      await t2.connect();
      try {
        await t1.query('BEGIN');
        const [row1] = (await t1.query(INSERT_OUTBOX, [SKILL_CHANGES_TOPIC, early.id, JSON.stringify(eventOf(early))]))
          .rows;
        const [row2] = (await t2.query(INSERT_OUTBOX, [SKILL_CHANGES_TOPIC, late.id, JSON.stringify(eventOf(late))]))
          .rows;
        expect(Number(row1.id)).toBeLessThan(Number(row2.id));
        await log.subscribe('g-writers', handler);
        await severalPollsLater();
        expect(received).toEqual([]);
        await t1.query('COMMIT');
      } finally {
        await t1.end();
        await t2.end();
      }
    } else {
      // PGlite is one session, so transactions cannot interleave: model T1 by a row
      // whose txid is above the oldest in-flight bound, as an open writer's would be.
      const [{ xmin }] = (await sequelize.query<{ xmin: string }>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
        {
          type: QueryTypes.SELECT,
        },
      )) as [{ xmin: string }];
      const inFlight = String(BigInt(xmin) + 40n);
      await sequelize.query(
        'INSERT INTO collections.outbox (txid, topic, key, event) VALUES ($1::xid8, $2, $3, $4::jsonb)',
        {
          bind: [inFlight, SKILL_CHANGES_TOPIC, early.id, JSON.stringify(eventOf(early))],
        },
      );
      await publish([late]);
      await log.subscribe('g-writers', handler);
      await eventually(() => received.length >= 1, 'the committed row');
      await severalPollsLater();
      expect(received).toEqual([late.id]);
      // "T1 commits": the transaction ids move past the held row's txid.
      await eventually(async () => {
        await sequelize.query('SELECT pg_current_xact_id()');
        const [row] = await sequelize.query<{ passed: boolean }>(
          'SELECT pg_snapshot_xmin(pg_current_snapshot()) > $1::xid8 AS passed',
          {
            type: QueryTypes.SELECT,
            bind: [inFlight],
          },
        );
        return row?.passed === true;
      }, 'transaction ids past the in-flight writer');
    }
    await eventually(() => received.length >= 2, 'both rows');
    expect(received).toEqual(db.kind === 'postgres' ? [early.id, late.id] : [late.id, early.id]);
  });
});

/** Item n of the generated rows: its id is a UUID ending in n. */
const idOfN = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** An event of the contract for item `n` (a column of generate_series), built in SQL. */
const ITEM_N = `'00000000-0000-4000-8000-' || lpad(n::text, 12, '0')`;
const EVENT_OF_N = `jsonb_build_object('eventId', '0', 'type', 'skill.upserted', 'itemId', ${ITEM_N}, 'version', 1,
  'occurredAt', '2026-01-01T00:00:00.000Z', 'item', jsonb_build_object('id', ${ITEM_N}, 'slug', 'item-' || n, 'name', 'Item ' || n,
  'description', '', 'type', 'skill', 'category', 'general', 'tags', '[]'::jsonb, 'status', 'active', 'visibility', 'public',
  'updatedAt', '2026-01-01T00:00:00.000Z', 'version', 1))`;

describe('PostgresEventLog batches across ids of different lengths', () => {
  it('delivers every row of one large transaction in id order (ids 1..1200, batches of 500)', async () => {
    await sequelize.query('TRUNCATE collections.outbox RESTART IDENTITY; TRUNCATE catalog.event_positions');
    // One statement, so one txid: the order within the batch rests on the id alone.
    await sequelize.query(
      `INSERT INTO collections.outbox (topic, key, event)
       SELECT $1, 'k' || n, ${EVENT_OF_N} FROM generate_series(1, 1200) AS n`,
      { bind: [SKILL_CHANGES_TOPIC] },
    );
    const received: string[] = [];
    let polls = 0;
    const log = createLog(() => void (polls += 1), 500);
    try {
      await log.subscribe('g-large', async (events) => void received.push(...events.map((e) => e.itemId)));
      // Every row (a lost batch times out here); then more reads, so a duplicate delivery would show below.
      await eventually(() => received.length >= 1200, 'the 1,200 rows');
      const readsSoFar = polls;
      await eventually(() => polls >= readsSoFar + 5, 'five more reads');
    } finally {
      await log.close();
    }
    expect(received).toEqual(Array.from({ length: 1200 }, (_, i) => idOfN(i + 1)));
  });

  it('delivers a failed batch again whole, and the batch read ahead of it after it (batches of 2)', async () => {
    await sequelize.query('TRUNCATE collections.outbox RESTART IDENTITY; TRUNCATE catalog.event_positions');
    await sequelize.query(
      `INSERT INTO collections.outbox (topic, key, event)
       SELECT $1, 'k' || n, ${EVENT_OF_N} FROM generate_series(1, 7) AS n`,
      { bind: [SKILL_CHANGES_TOPIC] },
    );
    const calls: string[][] = [];
    const log = createLog(undefined, 2);
    try {
      await log.subscribe('g-retry-ahead', async (events) => {
        calls.push(events.map((e) => e.itemId));
        // The second batch fails once, after the third was already being read.
        if (calls.length === 2) throw new Error('indexing failed');
      });
      await eventually(() => calls.flat().includes(idOfN(7)), 'the last row');
      await publish([itemVersion(randomUUID(), 1)]);
      await eventually(() => calls.length === 6, 'the row published later');
    } finally {
      await log.close();
    }
    expect(calls.slice(0, 5)).toEqual([
      [idOfN(1), idOfN(2)],
      [idOfN(3), idOfN(4)],
      [idOfN(3), idOfN(4)],
      [idOfN(5), idOfN(6)],
      [idOfN(7)],
    ]);
    expect(calls[5]).toHaveLength(1);
  });
});
