import type { PageRequest, ScanVerdict } from '@skills/common';
import type { ReleaseJudgement, ScanInput, VerdictEntry } from '../domain/model';
import type { VerdictRepository } from '../domain/ports';
import { iso, type Sql } from './sql';

interface EntryRow {
  kind: VerdictEntry['kind'];
  scanner: string | null;
  verdict: ScanVerdict | null;
  summary: string | null;
  report_url: string | null;
  note: string | null;
  recorded_at: Date | string;
}

const COLUMNS = 'kind, scanner, verdict, summary, report_url, note, recorded_at';

function toEntry(row: EntryRow): VerdictEntry {
  return {
    kind: row.kind,
    scanner: row.scanner,
    verdict: row.verdict,
    summary: row.summary,
    reportUrl: row.report_url,
    note: row.note,
    recordedAt: iso(row.recorded_at),
  };
}

/** Rows are only added; "latest" is the highest id, as recorded_at may tie within a transaction. */
export class SqlVerdictRepository implements VerdictRepository {
  constructor(private readonly sql: Sql) {}

  async addScan(itemId: string, version: string, scan: ScanInput): Promise<void> {
    await this.sql.run(
      `INSERT INTO collections.release_verdicts (item_id, version, kind, scanner, verdict, summary, report_url)
       VALUES ($1, $2, 'scan', $3, $4, $5, $6)`,
      [itemId, version, scan.scanner, scan.verdict, scan.summary, scan.reportUrl],
    );
  }

  async addOverride(itemId: string, version: string, verdict: ScanVerdict, note: string): Promise<void> {
    await this.sql.run(
      `INSERT INTO collections.release_verdicts (item_id, version, kind, verdict, note) VALUES ($1, $2, 'override', $3, $4)`,
      [itemId, version, verdict, note],
    );
  }

  async addOverrideCleared(itemId: string, version: string): Promise<void> {
    await this.sql.run(
      `INSERT INTO collections.release_verdicts (item_id, version, kind) VALUES ($1, $2, 'override-cleared')`,
      [itemId, version],
    );
  }

  async judgement(itemId: string, version: string): Promise<ReleaseJudgement> {
    const scans = await this.sql.rows<EntryRow>(
      `SELECT DISTINCT ON (scanner) ${COLUMNS} FROM collections.release_verdicts
       WHERE item_id = $1 AND version = $2 AND kind = 'scan' ORDER BY scanner, id DESC`,
      [itemId, version],
    );
    const override = await this.sql.one<EntryRow>(
      `SELECT ${COLUMNS} FROM collections.release_verdicts
       WHERE item_id = $1 AND version = $2 AND kind <> 'scan' ORDER BY id DESC LIMIT 1`,
      [itemId, version],
    );
    return { scans: scans.map(toEntry), override: override?.kind === 'override' ? toEntry(override) : null };
  }

  async history(
    itemId: string,
    version: string,
    { page, limit }: PageRequest,
  ): Promise<{ entries: VerdictEntry[]; total: number }> {
    const rows = await this.sql.rows<EntryRow & { total: number }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM collections.release_verdicts
       WHERE item_id = $1 AND version = $2 ORDER BY id DESC LIMIT $3 OFFSET $4`,
      [itemId, version, limit, (page - 1) * limit],
    );
    // a page past the end has no row to carry the total
    const total = rows[0]?.total ?? (await this.count(itemId, version));
    return { entries: rows.map(toEntry), total };
  }

  private async count(itemId: string, version: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM collections.release_verdicts WHERE item_id = $1 AND version = $2',
      [itemId, version],
    );
    return row?.n ?? 0;
  }
}
