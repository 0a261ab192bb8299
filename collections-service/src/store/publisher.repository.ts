import type { PageRequest } from '@skills/common';
import type { PublisherRecord } from '../domain/model';
import type { PublisherRepository } from '../domain/ports';
import { iso, type Sql } from './sql';

interface PublisherRow {
  name: string;
  verified: boolean;
  verified_at: Date | string | null;
  note: string | null;
  item_count: number;
}

function toRecord(row: PublisherRow): PublisherRecord {
  return {
    name: row.name,
    verified: row.verified,
    verifiedAt: row.verified_at === null ? null : iso(row.verified_at),
    note: row.note,
    itemCount: row.item_count,
  };
}

const ITEM_COUNT = `(SELECT count(*)::int FROM collections.items i
  WHERE i.publisher = p.name AND i.visibility = 'public' AND i.status <> 'deleted')`;

export class SqlPublisherRepository implements PublisherRepository {
  constructor(private readonly sql: Sql) {}

  async put(name: string, verified: boolean, note: string | null): Promise<PublisherRecord> {
    // verified_at: when it last turned verified; kept while it stays so
    const row = await this.sql.one<PublisherRow>(
      `INSERT INTO collections.publishers AS p (name, verified, verified_at, note)
       VALUES ($1, $2, CASE WHEN $2 THEN now() END, $3)
       ON CONFLICT (name) DO UPDATE SET verified = EXCLUDED.verified, note = EXCLUDED.note, updated_at = now(),
         verified_at = CASE WHEN NOT EXCLUDED.verified THEN NULL WHEN p.verified THEN p.verified_at ELSE now() END
       RETURNING p.name, p.verified, p.verified_at, p.note, ${ITEM_COUNT} AS item_count`,
      [name, verified, note],
    );
    if (!row) throw new Error('upsert returned no row');
    return toRecord(row);
  }

  async isVerified(name: string | null): Promise<boolean> {
    if (name === null) return false;
    const row = await this.sql.one<{ verified: boolean }>(
      'SELECT verified FROM collections.publishers WHERE name = $1',
      [name],
    );
    return row?.verified ?? false;
  }

  async list(
    verified: boolean | undefined,
    { page, limit }: PageRequest,
  ): Promise<{ publishers: PublisherRecord[]; total: number }> {
    const rows = await this.sql.rows<PublisherRow & { total: number }>(
      `WITH named AS (
         SELECT DISTINCT publisher AS name FROM collections.items
         WHERE publisher IS NOT NULL AND visibility = 'public' AND status <> 'deleted'
         UNION SELECT name FROM collections.publishers
       )
       SELECT n.name, coalesce(p.verified, false) AS verified, p.verified_at, p.note, ${ITEM_COUNT.replace('p.name', 'n.name')} AS item_count,
              count(*) OVER ()::int AS total
       FROM named n LEFT JOIN collections.publishers p ON p.name = n.name
       WHERE $1::boolean IS NULL OR coalesce(p.verified, false) = $1::boolean
       ORDER BY n.name LIMIT $2 OFFSET $3`,
      [verified ?? null, limit, (page - 1) * limit],
    );
    return { publishers: rows.map(toRecord), total: rows[0]?.total ?? 0 };
  }
}
