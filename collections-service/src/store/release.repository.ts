import type { Verdict } from '@skills/common';
import type { ReleaseInput, ReleaseRecord } from '../domain/model';
import type { ReleaseRepository } from '../domain/ports';
import { iso, type Sql } from './sql';

interface ReleaseRow {
  item_id: string;
  version: string;
  digest: string;
  published_at: Date | string;
  source_repository: string;
  source_ref: string;
  yanked_at: Date | string | null;
  yank_reason: string | null;
  verdict: Verdict;
}

const COLUMNS =
  'item_id, version, digest, published_at, source_repository, source_ref, yanked_at, yank_reason, verdict';

function toRecord(row: ReleaseRow): ReleaseRecord {
  return {
    itemId: row.item_id,
    version: row.version,
    digest: row.digest,
    publishedAt: iso(row.published_at),
    source: { repository: row.source_repository, ref: row.source_ref },
    yanked: row.yanked_at === null ? null : { reason: row.yank_reason ?? '', at: iso(row.yanked_at) },
    verdict: row.verdict,
  };
}

export class SqlReleaseRepository implements ReleaseRepository {
  constructor(private readonly sql: Sql) {}

  async find(itemId: string, version: string): Promise<ReleaseRecord | null> {
    const row = await this.sql.one<ReleaseRow>(
      `SELECT ${COLUMNS} FROM collections.releases WHERE item_id = $1 AND version = $2`,
      [itemId, version],
    );
    return row && toRecord(row);
  }

  async listAll(itemId: string): Promise<ReleaseRecord[]> {
    const rows = await this.sql.rows<ReleaseRow>(`SELECT ${COLUMNS} FROM collections.releases WHERE item_id = $1`, [
      itemId,
    ]);
    return rows.map(toRecord);
  }

  async listForItems(itemIds: readonly string[]): Promise<ReleaseRecord[]> {
    if (itemIds.length === 0) return [];
    const rows = await this.sql.rows<ReleaseRow>(
      `SELECT ${COLUMNS} FROM collections.releases WHERE item_id = ANY($1::uuid[])`,
      [itemIds],
    );
    return rows.map(toRecord);
  }

  async count(itemId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM collections.releases WHERE item_id = $1',
      [itemId],
    );
    return row?.n ?? 0;
  }

  async insert(itemId: string, input: ReleaseInput): Promise<ReleaseRecord> {
    const row = await this.sql.one<ReleaseRow>(
      `INSERT INTO collections.releases (item_id, version, digest, published_at, source_repository, source_ref)
       VALUES ($1, $2, $3, coalesce($4::timestamptz, now()), $5, $6) RETURNING ${COLUMNS}`,
      [itemId, input.version, input.digest, input.publishedAt ?? null, input.source.repository, input.source.ref],
    );
    if (!row) throw new Error('insert returned no row');
    return toRecord(row);
  }

  async setYank(itemId: string, version: string, reason: string | null): Promise<ReleaseRecord | null> {
    const row = await this.sql.one<ReleaseRow>(
      `UPDATE collections.releases
       SET yank_reason = $3, yanked_at = CASE WHEN $3::text IS NULL THEN NULL ELSE coalesce(yanked_at, now()) END
       WHERE item_id = $1 AND version = $2 RETURNING ${COLUMNS}`,
      [itemId, version, reason],
    );
    return row && toRecord(row);
  }

  async setVerdict(itemId: string, version: string, verdict: Verdict): Promise<void> {
    await this.sql.run('UPDATE collections.releases SET verdict = $3 WHERE item_id = $1 AND version = $2', [
      itemId,
      version,
      verdict,
    ]);
  }
}
