import { randomUUID } from 'node:crypto';
import type { ItemStatus, ItemTrust, ItemType, ItemVisibility, PageRequest } from '@skills/common';
import type { ItemRecord, PublicItemInput } from '../domain/model';
import type { ChangePosition, ItemRepository } from '../domain/ports';
import { detailsColumns, detailsOfRow, type DetailsRow } from './item-details.sql';
import { trustColumns, trustOfRow, type TrustRow } from './item-trust.sql';
import { iso, type Sql } from './sql';

interface ItemRow extends DetailsRow, TrustRow {
  id: string;
  slug: string | null;
  name: string;
  description: string;
  type: ItemType;
  category: string | null;
  tags: string[];
  status: ItemStatus;
  visibility: ItemVisibility;
  owner_account_id: string | null;
  version: number;
  updated_at: Date;
}

const COLUMNS = `id, slug, name, description, type, category, tags, status, visibility, owner_account_id, version, updated_at, ${detailsColumns()}, ${trustColumns()}`;

function toRecord(row: ItemRow): ItemRecord {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    type: row.type,
    category: row.category,
    tags: row.tags,
    status: row.status,
    visibility: row.visibility,
    ownerAccountId: row.owner_account_id,
    version: row.version,
    updatedAt: iso(row.updated_at),
    details: detailsOfRow(row),
    trust: trustOfRow(row),
  };
}

/**
 * The public-item upsert shared by PUT and import: rows arrive as one JSON
 * array parameter (jsonb_to_recordset), so a batch of any size is one
 * statement with one bind value. `xmax = 0` tells an insert from an update.
 * The details are replaced like every other field, except `downloads`: a row
 * without it keeps the stored count (a usage count is fed apart from edits,
 * and an edit must not reset it).
 */
const UPSERT_PUBLIC_BODY = `
  INSERT INTO collections.items AS i (id, slug, name, description, type, category, tags, status, visibility,
                                      publisher, release_version, license, repository_url, homepage_url, downloads)
  SELECT r.id, r.slug, r.name, r.description, r.type, r.category, r.tags, r.status, 'public',
         r.publisher, r.version, r.license, r."repositoryUrl", r."homepageUrl", r.downloads
  FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, slug text, name text, description text, type text,
                                          category text, tags text[], status text, publisher text, version text,
                                          license text, "repositoryUrl" text, "homepageUrl" text, downloads bigint)
  ON CONFLICT (slug) DO UPDATE SET
    name = EXCLUDED.name, description = EXCLUDED.description, type = EXCLUDED.type,
    category = EXCLUDED.category, tags = EXCLUDED.tags, status = EXCLUDED.status,
    publisher = EXCLUDED.publisher, license = EXCLUDED.license,
    -- once the item has releases, its release is latestVersion, whatever the PUT says
    release_version = CASE WHEN EXISTS (SELECT 1 FROM collections.releases r WHERE r.item_id = i.id)
                           THEN i.release_version ELSE EXCLUDED.release_version END,
    repository_url = EXCLUDED.repository_url, homepage_url = EXCLUDED.homepage_url,
    downloads = coalesce(EXCLUDED.downloads, i.downloads),
    version = i.version + 1, updated_at = now()`;
const UPSERT_PUBLIC = `${UPSERT_PUBLIC_BODY} RETURNING ${COLUMNS}, (xmax = 0) AS inserted`;
const UPSERT_PUBLIC_IDS = `${UPSERT_PUBLIC_BODY} RETURNING id`;

export class SqlItemRepository implements ItemRepository {
  constructor(private readonly sql: Sql) {}

  async findPublicBySlug(slug: string): Promise<ItemRecord | null> {
    const row = await this.sql.one<ItemRow>(`SELECT ${COLUMNS} FROM collections.items WHERE slug = $1`, [slug]);
    return row && toRecord(row);
  }

  async findById(id: string): Promise<ItemRecord | null> {
    const row = await this.sql.one<ItemRow>(`SELECT ${COLUMNS} FROM collections.items WHERE id = $1`, [id]);
    return row && toRecord(row);
  }

  async upsertPublic(input: PublicItemInput): Promise<{ item: ItemRecord; created: boolean }> {
    const rows = await this.sql.rows<ItemRow & { inserted: boolean }>(UPSERT_PUBLIC, [
      JSON.stringify([{ id: randomUUID(), ...input }]),
    ]);
    const row = rows[0];
    if (!row) throw new Error('upsert returned no row');
    return { item: toRecord(row), created: row.inserted };
  }

  async upsertPublicBatch(inputs: readonly PublicItemInput[]): Promise<string[]> {
    if (inputs.length === 0) return [];
    // Only ids come back: the outbox writer reads the states itself, without a round trip through Node.
    const rows = await this.sql.rows<{ id: string }>(UPSERT_PUBLIC_IDS, [
      JSON.stringify(inputs.map((input) => ({ id: randomUUID(), ...input }))),
    ]);
    return rows.map((row) => row.id);
  }

  async tombstone(slug: string): Promise<ItemRecord | null> {
    const row = await this.sql.one<ItemRow>(
      `UPDATE collections.items SET status = 'deleted', version = version + 1, updated_at = now()
       WHERE slug = $1 AND status <> 'deleted' RETURNING ${COLUMNS}`,
      [slug],
    );
    return row && toRecord(row);
  }

  async createPrivate(ownerAccountId: string, name: string, description: string): Promise<ItemRecord> {
    const row = await this.sql.one<ItemRow>(
      `INSERT INTO collections.items (id, name, description, visibility, owner_account_id)
       VALUES ($1, $2, $3, 'private', $4) RETURNING ${COLUMNS}`,
      [randomUUID(), name, description, ownerAccountId],
    );
    if (!row) throw new Error('insert returned no row');
    return toRecord(row);
  }

  async listPrivate(ownerAccountId: string, { page, limit }: PageRequest): Promise<ItemRecord[]> {
    const rows = await this.sql.rows<ItemRow>(
      `SELECT ${COLUMNS} FROM collections.items WHERE owner_account_id = $1 AND visibility = 'private'
       ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [ownerAccountId, limit, (page - 1) * limit],
    );
    return rows.map(toRecord);
  }

  async countPrivate(ownerAccountId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM collections.items WHERE owner_account_id = $1 AND visibility = 'private'`,
      [ownerAccountId],
    );
    return row?.n ?? 0;
  }

  async lockPrivateOwner(ownerAccountId: string): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtext('private-skills:' || $1))`, [ownerAccountId]);
  }

  async page(after: string | null, limit: number): Promise<ItemRecord[]> {
    const rows = after
      ? await this.sql.rows<ItemRow>(`SELECT ${COLUMNS} FROM collections.items WHERE id > $1 ORDER BY id LIMIT $2`, [
          after,
          limit,
        ])
      : await this.sql.rows<ItemRow>(`SELECT ${COLUMNS} FROM collections.items ORDER BY id LIMIT $1`, [limit]);
    return rows.map(toRecord);
  }

  async changesAfter(
    after: ChangePosition,
    limit: number,
  ): Promise<Array<{ item: ItemRecord; position: ChangePosition }>> {
    const rows = await this.sql.rows<ItemRow & { written_xid: string }>(
      // ORDER BY names the table's columns: the bare name would be the text alias of the select
      // list, sorting "10" before "9" and defeating the (written_xid, id) index (a scan and sort
      // of every later row per page: 1.1 s a page at a million items)
      `SELECT ${COLUMNS}, written_xid::text AS written_xid FROM collections.items
       WHERE visibility = 'public' AND was_active AND (written_xid, id) > ($1::xid8, $2::uuid)
         AND written_xid < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY items.written_xid, items.id LIMIT $3`,
      [after.xid, after.id, limit],
    );
    return rows.map((row) => ({ item: toRecord(row), position: { xid: row.written_xid, id: row.id } }));
  }

  async lockPublicBySlug(slug: string): Promise<ItemRecord | null> {
    const row = await this.sql.one<ItemRow>(
      `SELECT ${COLUMNS} FROM collections.items WHERE slug = $1 AND visibility = 'public' AND status <> 'deleted' FOR UPDATE`,
      [slug],
    );
    return row && toRecord(row);
  }

  async writeTrust(itemId: string, trust: Omit<ItemTrust, 'publisherVerified'>): Promise<void> {
    await this.sql.run(
      `UPDATE collections.items SET latest_version = $2, verdict = $3, blocked_reason = $4, release_version = $2,
         version = version + 1, updated_at = now()
       WHERE id = $1`,
      [itemId, trust.latestVersion, trust.verdict, trust.blockedReason],
    );
  }

  async touchPublisher(publisher: string): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(
      `UPDATE collections.items SET version = version + 1, updated_at = now()
       WHERE publisher = $1 AND visibility = 'public' AND status <> 'deleted' RETURNING id`,
      [publisher],
    );
    return rows.map((row) => row.id);
  }
}
