import { randomUUID } from 'node:crypto';
import type { PageRequest } from '@skills/common';
import type { RateWindow } from '../domain/limits';
import type { ReportRepository } from '../domain/ports';
import type { NewReport, ReportOutcome, ReportReason, ReportRecord, ReportStatus } from '../domain/report';
import { rateWindow } from './rate-window';
import { iso, type Sql } from './sql';

interface ReportRow {
  id: string;
  slug: string;
  item_name: string;
  reporter_account_id: string;
  reason: ReportReason;
  text: string;
  status: ReportStatus;
  created_at: Date;
  handled_at: Date | null;
  note: string | null;
}

/** The columns of a report row `r` joined with its item `i`. */
const COLUMNS = `r.id, i.slug, i.name AS item_name, r.reporter_account_id, r.reason, r.text, r.status, r.created_at, r.handled_at, r.note`;

function toRecord(row: ReportRow): ReportRecord {
  return {
    id: row.id,
    slug: row.slug,
    itemName: row.item_name,
    reporterAccountId: row.reporter_account_id,
    reason: row.reason,
    text: row.text,
    status: row.status,
    createdAt: iso(row.created_at),
    handledAt: row.handled_at && iso(row.handled_at),
    note: row.note,
  };
}

const statusFilter = (status: ReportStatus | undefined, index: number): string =>
  status ? `WHERE r.status = $${index}` : '';

export class SqlReportRepository implements ReportRepository {
  constructor(private readonly sql: Sql) {}

  async lockReporter(accountId: string): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtext('reports:' || $1))`, [accountId]);
  }

  windowOf(accountId: string, windowMs: number, limit: number): Promise<RateWindow> {
    const reports = { table: 'collections.reports', where: 'reporter_account_id = $1', bind: [accountId] };
    return rateWindow(this.sql, reports, windowMs, limit);
  }

  async insert(report: NewReport): Promise<ReportRecord> {
    const row = await this.sql.one<ReportRow>(
      `WITH r AS (
         INSERT INTO collections.reports (id, item_id, reporter_account_id, reason, text)
         VALUES ($1, $2, $3, $4, $5) RETURNING *)
       SELECT ${COLUMNS} FROM r JOIN collections.items i ON i.id = r.item_id`,
      [randomUUID(), report.itemId, report.reporterAccountId, report.reason, report.text],
    );
    if (!row) throw new Error('report insert returned no row');
    return toRecord(row);
  }

  async list(status: ReportStatus | undefined, page: PageRequest): Promise<ReportRecord[]> {
    const bind: unknown[] = [page.limit, (page.page - 1) * page.limit];
    if (status) bind.push(status);
    const rows = await this.sql.rows<ReportRow>(
      `SELECT ${COLUMNS} FROM collections.reports r JOIN collections.items i ON i.id = r.item_id
       ${statusFilter(status, 3)}
       ORDER BY r.created_at DESC, r.id DESC LIMIT $1 OFFSET $2`,
      bind,
    );
    return rows.map(toRecord);
  }

  async count(status: ReportStatus | undefined): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM collections.reports r ${statusFilter(status, 1)}`,
      status ? [status] : [],
    );
    return row?.n ?? 0;
  }

  async findById(id: string): Promise<ReportRecord | null> {
    const row = await this.sql.one<ReportRow>(
      `SELECT ${COLUMNS} FROM collections.reports r JOIN collections.items i ON i.id = r.item_id WHERE r.id = $1`,
      [id],
    );
    return row && toRecord(row);
  }

  async handleOpen(id: string, outcome: ReportOutcome, note: string): Promise<ReportRecord | null> {
    // A concurrent handling of the same report waits on the row, then finds it no longer open.
    const row = await this.sql.one<ReportRow>(
      `WITH r AS (
         UPDATE collections.reports SET status = $2, note = $3, handled_at = now()
          WHERE id = $1 AND status = 'open' RETURNING *)
       SELECT ${COLUMNS} FROM r JOIN collections.items i ON i.id = r.item_id`,
      [id, outcome, note],
    );
    return row && toRecord(row);
  }
}
