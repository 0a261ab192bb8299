import type { Sql } from '../store/sql';

/** One pruner deletes at a time across replicas; the lock ends with the pass's transaction, so a dead pruner never holds it. */
const PRUNER_LOCK = `SELECT pg_try_advisory_xact_lock(hashtext('collections.outbox-pruner')) AS leader`;

/**
 * The consumer positions of the Postgres event log live in catalog-service's
 * schema (its migration 001). This service reads them and nothing else of that
 * schema; until catalog-service has migrated, no consumer is known.
 */
const POSITIONS_EXIST = `SELECT to_regclass('catalog.event_positions') IS NOT NULL AS present`;

/**
 * Candidates are the `$2` lowest ids only, so a pass costs at most `$2` index
 * entries however large the outbox is (a filter walking the whole table would
 * read every row of the retention window on every pass). A candidate that is
 * not prunable yet stays for a later pass; rows behind it are younger or were
 * written later, so little is held back, and never for long.
 */
const HEAD = `(SELECT id FROM collections.outbox ORDER BY id LIMIT $2) AS head`;

/** The retention clock is `created_at` (the writing transaction's start); never a safety condition on its own. */
const OLD_ENOUGH = `o.created_at <= now() - $1::bigint * interval '1 millisecond'`;

/**
 * EVENT_LOG=kafka: the broker acknowledged the row (`published_at` is set only
 * after acks = -1). A row committed late is unpublished until the relay claims
 * it, so it cannot be deleted before it went out.
 */
const PRUNE_PUBLISHED = `
  DELETE FROM collections.outbox o
  USING ${HEAD}
  WHERE o.id = head.id AND o.published_at IS NOT NULL AND ${OLD_ENOUGH}`;

/**
 * EVENT_LOG=postgres: every registered consumer group's position is at or past
 * the row in (txid, id) order, the order the groups read in. Compared by
 * (txid, id), never by id alone: a transaction that commits late can hold a
 * lower id than a row a group already passed, and its txid is above every
 * saved position (groups read only below pg_snapshot_xmin), so it is kept
 * until every group has read it. No registered group: nothing is deleted.
 */
const PRUNE_CONSUMED = `
  DELETE FROM collections.outbox o
  USING ${HEAD},
    (SELECT last_txid, last_id FROM catalog.event_positions ORDER BY last_txid, last_id LIMIT 1) AS slowest
  WHERE o.id = head.id AND (o.txid, o.id) <= (slowest.last_txid, slowest.last_id) AND ${OLD_ENOUGH}`;

/** count(*) as float8: exact, and no int4 overflow on a runaway table. */
const COUNT_ROWS = `SELECT count(*)::float8 AS n FROM collections.outbox`;

/** The lowest id is the row that retention reaches first: its age shows whether pruning keeps up. */
const OLDEST_AGE = `
  SELECT extract(epoch FROM now() - created_at)::float8 AS seconds
  FROM collections.outbox ORDER BY id LIMIT 1`;

/** The pruner's SQL, and the size of the outbox for /metrics. */
export class OutboxRetentionRepository {
  constructor(private readonly sql: Sql) {}

  async tryLead(): Promise<boolean> {
    const row = await this.sql.one<{ leader: boolean }>(PRUNER_LOCK);
    return row?.leader === true;
  }

  prunePublished(retentionMs: number, limit: number): Promise<number> {
    return this.sql.run(PRUNE_PUBLISHED, [retentionMs, limit]);
  }

  async consumerPositionsExist(): Promise<boolean> {
    const row = await this.sql.one<{ present: boolean }>(POSITIONS_EXIST);
    return row?.present === true;
  }

  pruneConsumed(retentionMs: number, limit: number): Promise<number> {
    return this.sql.run(PRUNE_CONSUMED, [retentionMs, limit]);
  }

  async countRows(): Promise<number> {
    const row = await this.sql.one<{ n: number | string }>(COUNT_ROWS);
    return Number(row?.n ?? 0);
  }

  /** Seconds since the lowest-id row was written; null when the outbox is empty. */
  async oldestAgeSeconds(): Promise<number | null> {
    const row = await this.sql.one<{ seconds: number | string }>(OLDEST_AGE);
    return row ? Number(row.seconds) : null;
  }
}
