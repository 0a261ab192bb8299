/**
 * A reader of an append-only table in commit-safe order, with its position in
 * `webhook_positions`. It reads only rows whose transaction is below the
 * oldest still in flight (`pg_snapshot_xmin`), ordered by (txid, id): a
 * late commit always gets a txid at or above that bound, so moving past what
 * was read never skips it (the rule of catalog-service's OutboxConsumer).
 * The position row is locked for the pass, so two service instances never
 * handle the same rows at once, and it is saved in the transaction of the
 * handler's writes: a batch is handled whole or not at all.
 */
import type { Sequelize, Transaction } from 'sequelize';
import { Sql } from '../store/sql';

export interface LogRow {
  txid: string;
  id: string;
}

export interface OrderedLog<R extends LogRow> {
  /** names the reader's position */
  reader: string;
  /** `SELECT <columns>, txid::text AS txid, <id>::text AS id FROM ... WHERE <after $1,$2 and below xmin> ORDER BY txid, id LIMIT $3` */
  select: string;
  /** handles one batch inside the pass's transaction */
  handle(sql: Sql, rows: R[]): Promise<void>;
}

/** The condition every `select` carries: after ($1 txid, $2 id) and of finished transactions only. */
export function committedAfter(txid: string, id: string): string {
  return `(${txid}, ${id}) > ($1::xid8, $2::bigint) AND ${txid} < pg_snapshot_xmin(pg_current_snapshot())`;
}

/** Handles at most `limit` rows after the saved position; returns how many it handled. */
export async function readOnce<R extends LogRow>(
  sequelize: Sequelize,
  log: OrderedLog<R>,
  limit: number,
): Promise<number> {
  return sequelize.transaction(async (t: Transaction) => {
    const sql = new Sql(sequelize, t);
    await sql.run(
      `INSERT INTO collections.webhook_positions (reader, last_txid, last_id) VALUES ($1, '0'::xid8, 0) ON CONFLICT (reader) DO NOTHING`,
      [log.reader],
    );
    const position = await sql.one<{ txid: string; id: string }>(
      'SELECT last_txid::text AS txid, last_id::text AS id FROM collections.webhook_positions WHERE reader = $1 FOR UPDATE',
      [log.reader],
    );
    const rows = await sql.rows<R>(log.select, [position?.txid ?? '0', position?.id ?? '0', limit]);
    const last = rows.at(-1);
    if (!last) return 0;
    await log.handle(sql, rows);
    await sql.run(
      'UPDATE collections.webhook_positions SET last_txid = $2::xid8, last_id = $3::bigint WHERE reader = $1',
      [log.reader, last.txid, last.id],
    );
    return rows.length;
  });
}
