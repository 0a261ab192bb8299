import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  isForeignKeyViolation,
  type ItemStatus,
  type ItemType,
  type ItemVisibility,
  type PageRequest,
  type Verdict,
} from '@skills/common';
import {
  trustView,
  type CollectionEntry,
  type CollectionRecord,
  type CollectionWithEntries,
  type EntryPin,
  type StoredPin,
} from '../domain/model';
import type { CollectionRepository, NewCollection } from '../domain/ports';
import { detailsColumns, detailsOfRow, type DetailsRow } from './item-details.sql';
import { trustColumns, trustOfRow, type TrustRow } from './item-trust.sql';
import { iso, type Sql } from './sql';

interface CollectionRow {
  id: string;
  owner_account_id: string | null;
  workspace_id: string | null;
  created_by: string;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

interface EntryRow extends DetailsRow, TrustRow {
  collection_id: string;
  id: string;
  slug: string | null;
  name: string;
  description: string;
  type: ItemType;
  category: string | null;
  status: ItemStatus;
  visibility: ItemVisibility;
  pinned_version: string | null;
  pinned_digest: string | null;
  pinned_verdict: Verdict | null;
  pin_verdict: Verdict | null;
  pin_yanked_at: Date | string | null;
  pin_source_repository: string | null;
  pin_source_ref: string | null;
}

/** The pin of an entry row with its release as it is now (docs/governance.md). */
function pinOfRow(row: EntryRow): EntryPin | null {
  if (row.pinned_version === null || row.pinned_digest === null || row.pinned_verdict === null) return null;
  return {
    version: row.pinned_version,
    digest: row.pinned_digest,
    verdict: row.pin_verdict ?? row.pinned_verdict,
    yanked: row.pin_yanked_at !== null,
    pinnedVerdict: row.pinned_verdict,
    source: { repository: row.pin_source_repository ?? '', ref: row.pin_source_ref ?? '' },
  };
}

const COLUMNS = 'id, owner_account_id, workspace_id, created_by, name, description, created_at, updated_at';
/** The collection's columns as `c_<column>` of `c`, beside an entry's in one row (WITH_ENTRIES). */
const PREFIXED_COLUMNS = COLUMNS.split(', ')
  .map((column) => `c.${column} AS c_${column}`)
  .join(', ');
type PrefixedCollectionRow = { [K in keyof CollectionRow as `c_${K}`]: CollectionRow[K] };

/** An entry's item, its pin and the pinned release as it is now (joined as `r`): an entry row of every read. */
const ENTRY_COLUMNS = `e.collection_id, i.id, i.slug, i.name, i.description, i.type, i.category, i.status, i.visibility, ${detailsColumns('i')}, ${trustColumns('i')},
  e.pinned_version, e.pinned_digest, e.pinned_verdict, r.verdict AS pin_verdict, r.yanked_at AS pin_yanked_at,
  r.source_repository AS pin_source_repository, r.source_ref AS pin_source_ref`;
const PINNED_RELEASE = 'LEFT JOIN collections.releases r ON r.item_id = e.item_id AND r.version = e.pinned_version';
/** Every entry of the collection `c` (a CTE of COLUMNS) beside its row: one row of NULL entry columns when it has none. */
const WITH_ENTRIES = `SELECT ${PREFIXED_COLUMNS}, ${ENTRY_COLUMNS}
  FROM c
  LEFT JOIN (collections.collection_entries e JOIN collections.items i ON i.id = e.item_id) ON e.collection_id = c.id
  ${PINNED_RELEASE}
  ORDER BY e.id`;

function toRecord(row: CollectionRow): CollectionRecord {
  return {
    id: row.id,
    ownerAccountId: row.owner_account_id,
    workspaceId: row.workspace_id,
    createdBy: row.created_by,
    name: row.name,
    description: row.description,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function unprefixed(row: PrefixedCollectionRow): CollectionRow {
  return {
    id: row.c_id,
    owner_account_id: row.c_owner_account_id,
    workspace_id: row.c_workspace_id,
    created_by: row.c_created_by,
    name: row.c_name,
    description: row.c_description,
    created_at: row.c_created_at,
    updated_at: row.c_updated_at,
  };
}

function toEntry(row: EntryRow): CollectionEntry {
  if (row.visibility === 'private') {
    return { id: row.id, name: row.name, description: row.description, visibility: 'private' };
  }
  return {
    itemId: row.id,
    slug: row.slug ?? '',
    name: row.name,
    type: row.type,
    category: row.category,
    status: row.status,
    visibility: 'public',
    ...detailsOfRow(row),
    // a blocked skill stays in the collections that hold it, marked, so its holders learn why
    ...trustView(trustOfRow(row)),
    pin: pinOfRow(row),
  };
}

export class SqlCollectionRepository implements CollectionRepository {
  constructor(private readonly sql: Sql) {}

  async findById(id: string): Promise<CollectionRecord | null> {
    const row = await this.sql.one<CollectionRow>(`SELECT ${COLUMNS} FROM collections.collections WHERE id = $1`, [id]);
    return row && toRecord(row);
  }

  async lockById(id: string): Promise<CollectionRecord | null> {
    const row = await this.sql.one<CollectionRow>(
      `SELECT ${COLUMNS} FROM collections.collections WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return row && toRecord(row);
  }

  /**
   * The collection and every entry in one round trip: under load each query
   * costs collections-service and the database a round trip of CPU
   * (docs/performance.md, Collection reads), so a read is one query.
   */
  findWithEntries(id: string): Promise<CollectionWithEntries | null> {
    return this.oneWithEntries(
      `WITH c AS (SELECT ${COLUMNS} FROM collections.collections WHERE id = $1) ${WITH_ENTRIES}`,
      [id],
    );
  }

  private async oneWithEntries(sql: string, bind: unknown[]): Promise<CollectionWithEntries | null> {
    const rows = await this.sql.rows<PrefixedCollectionRow & EntryRow & { collection_id: string | null }>(sql, bind);
    const [first] = rows;
    if (!first) return null;
    const skills = first.collection_id === null ? [] : rows.map(toEntry);
    return { ...toRecord(unprefixed(first)), skills, skillCount: skills.length };
  }

  async listByOwner(accountId: string, page: PageRequest, preview: number): Promise<CollectionWithEntries[]> {
    return this.listPage('owner_account_id', accountId, page, preview);
  }

  async listByWorkspace(workspaceId: string, page: PageRequest, preview: number): Promise<CollectionWithEntries[]> {
    return this.listPage('workspace_id', workspaceId, page, preview);
  }

  /** Oldest first, then by id: a stable order, so pages neither repeat nor skip while nothing is created. */
  private async listPage(
    scope: 'owner_account_id' | 'workspace_id',
    id: string,
    { page, limit }: PageRequest,
    preview: number,
  ) {
    const rows = await this.sql.rows<CollectionRow & { entry_count: number }>(
      `SELECT ${COLUMNS},
              (SELECT count(*)::int FROM collections.collection_entries e WHERE e.collection_id = c.id) AS entry_count
       FROM collections.collections c WHERE ${scope} = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [id, limit, (page - 1) * limit],
    );
    const counts = new Map(rows.map((row) => [row.id, row.entry_count]));
    const listed = await this.attachEntries(rows.map(toRecord), preview);
    return listed.map((c) => ({ ...c, skillCount: counts.get(c.id) ?? c.skills.length }));
  }

  async withEntries(collection: CollectionRecord): Promise<CollectionWithEntries> {
    const [withSkills] = await this.attachEntries([collection]);
    return withSkills ?? { ...collection, skills: [], skillCount: 0 };
  }

  async lockScope(scopeId: string): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtext('collections:' || $1))`, [scopeId]);
  }

  async countByOwner(accountId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM collections.collections WHERE owner_account_id = $1',
      [accountId],
    );
    return row?.n ?? 0;
  }

  async countByWorkspace(workspaceId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM collections.collections WHERE workspace_id = $1',
      [workspaceId],
    );
    return row?.n ?? 0;
  }

  async insert(c: NewCollection): Promise<CollectionRecord> {
    const row = await this.sql
      .one<CollectionRow>(
        `INSERT INTO collections.collections (id, owner_account_id, workspace_id, created_by, name, description)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [randomUUID(), c.ownerAccountId, c.workspaceId, c.createdBy, c.name, c.description],
      )
      .catch((err: unknown) => {
        // the workspace went away between the membership check and the insert
        if (isForeignKeyViolation(err)) throw new NotFoundError('workspace.notFound', {}, { cause: err });
        throw err;
      });
    if (!row) throw new Error('insert returned no row');
    return toRecord(row);
  }

  async update(id: string, fields: { name?: string; description?: string }): Promise<CollectionWithEntries> {
    // the entries in the same statement: a PATCH answers with them (the CTE's SELECT sees this transaction's earlier writes)
    const updated = await this.oneWithEntries(
      `WITH c AS (
         UPDATE collections.collections
         SET name = COALESCE($2, name), description = COALESCE($3, description), updated_at = now()
         WHERE id = $1 RETURNING ${COLUMNS}
       ) ${WITH_ENTRIES}`,
      [id, fields.name ?? null, fields.description ?? null],
    );
    // the caller holds the row's lock: it cannot have gone
    if (!updated) throw new Error(`collection ${id} vanished under its lock`);
    return updated;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM collections.collections WHERE id = $1', [id])) > 0;
  }

  async addEntry(collectionId: string, itemId: string, pin: StoredPin | null): Promise<boolean> {
    const added = await this.sql.run(
      `INSERT INTO collections.collection_entries (collection_id, item_id, pinned_version, pinned_digest, pinned_verdict)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (collection_id, item_id) DO NOTHING`,
      [collectionId, itemId, pin?.version ?? null, pin?.digest ?? null, pin?.verdict ?? null],
    );
    return added > 0;
  }

  async hasEntry(collectionId: string, itemId: string): Promise<boolean> {
    const row = await this.sql.one(
      'SELECT 1 AS found FROM collections.collection_entries WHERE collection_id = $1 AND item_id = $2',
      [collectionId, itemId],
    );
    return row !== null;
  }

  async setPin(collectionId: string, itemId: string, pin: StoredPin): Promise<void> {
    await this.sql.run(
      `INSERT INTO collections.collection_entries (collection_id, item_id, pinned_version, pinned_digest, pinned_verdict)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (collection_id, item_id) DO UPDATE SET
         pinned_version = EXCLUDED.pinned_version, pinned_digest = EXCLUDED.pinned_digest, pinned_verdict = EXCLUDED.pinned_verdict`,
      [collectionId, itemId, pin.version, pin.digest, pin.verdict],
    );
  }

  async removeEntry(collectionId: string, itemId: string): Promise<void> {
    await this.sql.run('DELETE FROM collections.collection_entries WHERE collection_id = $1 AND item_id = $2', [
      collectionId,
      itemId,
    ]);
  }

  async countEntries(collectionId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM collections.collection_entries WHERE collection_id = $1',
      [collectionId],
    );
    return row?.n ?? 0;
  }

  /**
   * One query for the entries of every collection given, in the order they
   * were added: all of them, or the first `preview` of each (a lateral
   * LIMIT per collection, so a list page never reads every entry).
   */
  private async attachEntries(collections: CollectionRecord[], preview?: number): Promise<CollectionWithEntries[]> {
    if (collections.length === 0) return [];
    const ids = collections.map((c) => c.id);
    const rows =
      preview === undefined
        ? await this.sql.rows<EntryRow>(
            `SELECT ${ENTRY_COLUMNS}
             FROM collections.collection_entries e JOIN collections.items i ON i.id = e.item_id ${PINNED_RELEASE}
             WHERE e.collection_id = ANY($1::uuid[])
             ORDER BY e.id`,
            [ids],
          )
        : await this.sql.rows<EntryRow>(
            `SELECT ${ENTRY_COLUMNS}
             FROM unnest($1::uuid[]) AS c(id)
             CROSS JOIN LATERAL (SELECT x.id, x.collection_id, x.item_id, x.pinned_version, x.pinned_digest, x.pinned_verdict
                                 FROM collections.collection_entries x
                                 WHERE x.collection_id = c.id ORDER BY x.id LIMIT $2) e
             JOIN collections.items i ON i.id = e.item_id ${PINNED_RELEASE}
             ORDER BY e.id`,
            [ids, preview],
          );
    const byCollection = new Map<string, CollectionEntry[]>(collections.map((c) => [c.id, []]));
    for (const row of rows) byCollection.get(row.collection_id)?.push(toEntry(row));
    return collections.map((c) => {
      const skills = byCollection.get(c.id) ?? [];
      return { ...c, skills, skillCount: skills.length };
    });
  }
}
