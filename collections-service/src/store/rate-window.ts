/** The count behind a rate limit kept in the database (reports per account, tests per endpoint), so replicas agree. */
import type { RateWindow } from '../domain/limits';
import type { Sql } from './sql';

/**
 * The rows of `table` that `where` picks (its bind parameters `bind`, `$1`
 * on) made within `windowMs`, and the seconds until fewer than `limit` are:
 * once the limit-th newest leaves the window, limit - 1 are left in it and a
 * slot is free.
 */
export async function rateWindow(
  sql: Sql,
  rows: { table: string; where: string; bind: unknown[] },
  windowMs: number,
  limit: number,
): Promise<RateWindow> {
  const span = `$${rows.bind.length + 1}`;
  const rank = `$${rows.bind.length + 2}`;
  const row = await sql.one<{ count: number; seconds: number | null }>(
    `WITH w AS (
       SELECT created_at, row_number() OVER (ORDER BY created_at DESC) AS rank
         FROM ${rows.table}
        WHERE ${rows.where} AND created_at > now() - ${span}::interval)
     SELECT (SELECT count(*)::int FROM w) AS count,
            (SELECT ceil(extract(epoch FROM created_at + ${span}::interval - now()))::int FROM w WHERE rank = ${rank}) AS seconds`,
    [...rows.bind, `${windowMs} milliseconds`, limit],
  );
  return { count: row?.count ?? 0, secondsUntilBelow: Math.max(1, row?.seconds ?? 0) };
}
