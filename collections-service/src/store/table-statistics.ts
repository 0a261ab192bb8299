/**
 * Keeps the planner's row counts true after bulk writes. Autovacuum may be
 * off, or behind (it analyzes a table once a tenth of it changed, after its
 * nap): until it runs, a table bulk-loaded from empty reads as a few hundred
 * rows, and the keyset reads that walk it in order (the changes feed's
 * `(written_xid, id) > … ORDER BY … LIMIT`, the event log's `(txid, id)`)
 * are planned as a bitmap scan of every later row and a sort. Measured at
 * 1,000,000 imported items on the Postgres server: 2.7 s a page of 500
 * before an ANALYZE, an index range scan of a few milliseconds after.
 */
import type { Logger } from '@skills/common';
import type { Sequelize } from 'sequelize';

/** Rows written in bulk before statistics are refreshed, or this share of the rows at the last refresh, whichever is more. */
const ANALYZE_AFTER_ROWS = 5_000;
const ANALYZE_AFTER_SHARE = 0.2;
/** Only the columns the keyset reads filter and order on are sampled: the texts would make it several times slower. */
const ANALYZE_SQL = ['ANALYZE collections.items (id, slug, visibility, written_xid)', 'ANALYZE collections.outbox (id, txid, published_at)'];

export class TableStatistics {
  private rowsSince = 0;
  private rowsAtAnalyze = 0;
  private running: Promise<void> | undefined;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly logger: Logger,
  ) {}

  /** `rows` items (and as many outbox rows) were committed by one bulk write: refresh in the background once enough were. */
  written(rows: number): void {
    this.rowsSince += rows;
    if (this.running || this.rowsSince < Math.max(ANALYZE_AFTER_ROWS, this.rowsAtAnalyze * ANALYZE_AFTER_SHARE)) return;
    const counted = this.rowsSince;
    this.rowsSince = 0;
    this.running = this.analyze()
      .then(() => {
        this.rowsAtAnalyze += counted;
      })
      .catch((err: unknown) => {
        this.rowsSince += counted; // tried again after the next bulk write
        this.logger.warn({ err }, 'ANALYZE after a bulk write failed');
      })
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Waits for a refresh under way (shutdown, tests). */
  async settled(): Promise<void> {
    await this.running;
  }

  private async analyze(): Promise<void> {
    for (const sql of ANALYZE_SQL) await this.sequelize.query(sql);
  }
}
