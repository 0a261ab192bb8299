/**
 * Keeps the planner's row counts true after bulk writes. Autovacuum may be
 * off, or behind (it analyzes a table once a tenth of it changed, after its
 * nap): until it runs, a table bulk-loaded from empty reads as a few hundred
 * rows, and keyset reads that walk it in order (`(xid, id) > … ORDER BY …
 * LIMIT`) are planned as a bitmap scan of every later row and a sort.
 * Measured at 1,000,000 imported items on the Postgres server: 2.7 s a page
 * of 500 before an ANALYZE, an index range scan of a few milliseconds after.
 *
 * Only the columns a service's own statements filter and order on are
 * sampled: the texts and details would make each refresh several times
 * slower (60k rows on PGlite: 43 against 108 ms). And only 3,000 rows of
 * them (statistics target 10 instead of 100): those reads need the row count
 * and the keyset columns' range, which a small sample gives within a
 * percent, and a refresh runs after every few bulk writes, on PGlite in the
 * one session the writes themselves need (100k items and their outbox rows:
 * 32 ms of CPU instead of 175 ms).
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Logger } from '../logger';

/** Rows written before statistics are refreshed, or this share of the table at the last refresh, whichever is more. */
const REFRESH_AFTER_ROWS = 5_000;
const REFRESH_AFTER_SHARE = 0.2;
/** Statistics target of a refresh: ANALYZE samples 300 rows per unit (Postgres's default is 100). */
const REFRESH_STATISTICS_TARGET = 10;

export interface AnalyzedTable {
  /** schema-qualified name */
  name: string;
  /** the columns sampled */
  columns: readonly string[];
}

export interface StatisticsRefreshOptions {
  sequelize: Sequelize;
  logger: Logger;
  /** analyzed in order; the first one's estimated rows set the next threshold */
  tables: readonly AnalyzedTable[];
}

export class StatisticsRefresh {
  private rowsSince = 0;
  private rowsAtRefresh = 0;
  private running: Promise<void> | undefined;

  constructor(private readonly options: StatisticsRefreshOptions) {}

  /** `rows` were committed by a bulk write: a refresh starts in the background once enough were. */
  written(rows: number): void {
    this.rowsSince += rows;
    if (this.running || this.rowsSince < Math.max(REFRESH_AFTER_ROWS, this.rowsAtRefresh * REFRESH_AFTER_SHARE)) return;
    const counted = this.rowsSince;
    this.rowsSince = 0;
    this.running = this.refresh()
      .catch((err: unknown) => {
        // statistics are an optimisation: a failure fails no write, and is tried again after the next one
        this.rowsSince += counted;
        this.options.logger.warn(
          { err, tables: this.options.tables.map((t) => t.name) },
          'ANALYZE after a bulk write failed',
        );
      })
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Waits for a refresh under way. */
  async settled(): Promise<void> {
    await this.running;
  }

  private async refresh(): Promise<void> {
    const { sequelize, tables } = this.options;
    for (const { name, columns } of tables) {
      // SET LOCAL: the smaller sample ends with the transaction (PGlite's connections share one session)
      await sequelize.transaction(async (transaction) => {
        await sequelize.query(`SET LOCAL default_statistics_target = ${REFRESH_STATISTICS_TARGET}`, { transaction });
        await sequelize.query(analyzeSql(name, columns), { transaction });
      });
    }
    // the table's size as the planner now sees it, also after a restart or rows written by other replicas
    const [row] = await sequelize.query<{ n: string }>(
      'SELECT reltuples::bigint AS n FROM pg_class WHERE oid = $1::regclass',
      {
        type: QueryTypes.SELECT,
        bind: [tables[0]!.name],
      },
    );
    this.rowsAtRefresh = Math.max(0, Number(row?.n ?? 0));
  }
}

export function analyzeSql(table: string, columns: readonly string[]): string {
  return `ANALYZE ${table} (${columns.join(', ')})`;
}
