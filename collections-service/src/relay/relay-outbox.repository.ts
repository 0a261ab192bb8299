import type { SkillChangeEvent } from '@skills/common';
import type { Sql } from '../store/sql';

/** An outbox row on its way to the broker. */
export interface OutboxRow {
  /** bigserial, as text: the event id */
  id: string;
  topic: string;
  /** the item id: Kafka's partitioning key */
  key: string;
  event: SkillChangeEvent;
}

/** One relay publishes at a time; the lock ends with the claiming transaction, so a dead relay never holds it. */
const LEADER_LOCK = `SELECT pg_try_advisory_xact_lock(hashtext('collections.outbox-relay')) AS leader`;

/**
 * Ordered by id, not (txid, id): an item's events are written while its row
 * is locked, so id order is the item's version order; txid order is not (a
 * transaction may take its txid before an earlier writer of the item commits).
 * (`o.id`: a bare `id` would sort by the text alias.) SKIP LOCKED keeps a
 * second claimer from waiting on rows already taken.
 */
const CLAIM = `
  SELECT o.id::text AS id, o.topic, o.key, o.event
  FROM collections.outbox o
  WHERE o.published_at IS NULL
  ORDER BY o.id
  LIMIT $1
  FOR UPDATE SKIP LOCKED`;

const MARK = `UPDATE collections.outbox SET published_at = now() WHERE id = ANY($1::bigint[])`;

/** Outside any transaction: an idle relay polls without opening one. */
const ANY_UNPUBLISHED = `SELECT EXISTS (SELECT 1 FROM collections.outbox WHERE published_at IS NULL) AS pending`;

const COUNT_UNPUBLISHED = `SELECT count(*)::int AS n FROM collections.outbox WHERE published_at IS NULL`;

/** The relay's SQL; every call runs in the claiming transaction given through `sql`. */
export class RelayOutboxRepository {
  constructor(private readonly sql: Sql) {}

  async tryLead(): Promise<boolean> {
    const row = await this.sql.one<{ leader: boolean }>(LEADER_LOCK);
    return row?.leader === true;
  }

  claim(limit: number): Promise<OutboxRow[]> {
    return this.sql.rows<OutboxRow>(CLAIM, [limit]);
  }

  markPublished(ids: readonly string[]): Promise<number> {
    return this.sql.run(MARK, [ids]);
  }

  async anyUnpublished(): Promise<boolean> {
    const row = await this.sql.one<{ pending: boolean }>(ANY_UNPUBLISHED);
    return row?.pending === true;
  }

  async countUnpublished(): Promise<number> {
    const row = await this.sql.one<{ n: number }>(COUNT_UNPUBLISHED);
    return row?.n ?? 0;
  }
}
