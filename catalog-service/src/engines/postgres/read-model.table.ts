/**
 * The search read model in Postgres (docs/architecture.md, docs/search.md): every
 * item state the indexer applied, tombstones included, so versions are
 * remembered and an old event can never resurrect a newer state. Searches do
 * not read it; each replica's in-memory index is loaded from it at start and
 * follows its changes (`changesSince`), so a write through any replica
 * reaches every replica.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import {
  analyzeSql,
  detailsOf,
  NO_DETAILS,
  StatisticsRefresh,
  type CatalogItemState,
  type Health,
  type ItemDetails,
  type ItemTrust,
  type Logger,
} from '@skills/common';
import type { ReindexProgress } from '../search-engine';
import { INDEX_SUFFIXES, SEARCHABLE, searchTableSql } from './search-table';

export interface ReadModelTableOptions {
  sequelize: Sequelize;
  logger: Logger;
}

/** Where a follower stands: the (written_xid, id) of the last row it read. */
export interface FollowPosition {
  xid: string;
  id: string;
}

const COLUMNS =
  'id, slug, name, description, type, category, tags, status, visibility, updated_at, version, details, trust';
/** What an accepted newer state overwrites; the write also re-stamps the row so replicas follow it. */
const UPDATE_FROM_EXCLUDED = `slug = EXCLUDED.slug, name = EXCLUDED.name, description = EXCLUDED.description, type = EXCLUDED.type,
  category = EXCLUDED.category, tags = EXCLUDED.tags, status = EXCLUDED.status, visibility = EXCLUDED.visibility,
  updated_at = EXCLUDED.updated_at, version = EXCLUDED.version, details = EXCLUDED.details, trust = EXCLUDED.trust,
  written_xid = pg_current_xact_id()`;
const SELECT_STATE = `id, slug, name, description, type, category, tags, status, visibility, updated_at AS "updatedAt", version, details, trust`;
const NO_ID = '00000000-0000-0000-0000-000000000000';
/** Items per INSERT statement: one JSON parameter, bounded so one statement stays short. */
const APPLY_CHUNK = 1_000;
/** What this table's own statements filter and order on: what its statistics sample (StatisticsRefresh). */
const ANALYZED_COLUMNS = ['id', 'written_xid', 'status', 'visibility', 'indexed_at'];

interface StateRow extends Omit<CatalogItemState, 'updatedAt' | 'details' | 'trust'> {
  updatedAt: Date | string;
  details: Partial<ItemDetails> | string;
  /** null: a state written before trust existed (unscanned, unverified) */
  trust: ItemTrust | string | null;
}

export class ReadModelTable {
  private readonly sequelize: Sequelize;
  private readonly logger: Logger;
  private reindexing = false;
  private readonly statistics: StatisticsRefresh;

  constructor(options: ReadModelTableOptions) {
    this.sequelize = options.sequelize;
    this.logger = options.logger;
    this.statistics = new StatisticsRefresh({
      ...options,
      tables: [{ name: 'catalog.search_items', columns: ANALYZED_COLUMNS }],
    });
  }

  /** Writes the states newer than the stored ones; returns the states written. */
  async upsert(items: CatalogItemState[]): Promise<CatalogItemState[]> {
    const written: CatalogItemState[] = [];
    for (let i = 0; i < items.length; i += APPLY_CHUNK) {
      const chunk = newestPerId(items.slice(i, i + APPLY_CHUNK));
      const ids = new Set(await this.write('catalog.search_items', chunk));
      for (const item of chunk) if (ids.has(item.id)) written.push(item);
    }
    // waited for: the next batch's statements are planned with the new counts
    this.statistics.written(written.length);
    await this.statistics.settled();
    return written;
  }

  /** The oldest transaction still in flight: every write below it has committed or aborted. */
  async followBound(): Promise<FollowPosition> {
    const [row] = await this.sequelize.query<{ xid: string }>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xid',
      {
        type: QueryTypes.SELECT,
      },
    );
    return { xid: row?.xid ?? '0', id: NO_ID };
  }

  /**
   * Rows written at or after `from` by transactions that have all finished,
   * in (written_xid, id) order, at most `limit`. Reading only below the oldest
   * transaction in flight is what makes a late commit impossible to skip
   * (the outbox rule, docs/search.md "Event log").
   */
  async changesSince(
    from: FollowPosition,
    limit: number,
  ): Promise<{ states: CatalogItemState[]; next: FollowPosition }> {
    const rows = await this.sequelize.query<StateRow & { xid: string }>(
      `SELECT ${SELECT_STATE}, written_xid::text AS xid FROM catalog.search_items
       WHERE (written_xid, id) > ($1::xid8, $2::uuid) AND written_xid < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY written_xid, id LIMIT ${Math.trunc(limit)}`,
      { type: QueryTypes.SELECT, bind: [from.xid, from.id] },
    );
    const last = rows[rows.length - 1];
    return { states: rows.map(toState), next: last ? { xid: last.xid, id: last.id } : from };
  }

  /** Every searchable row, `pageSize` at a time in id order (keyset paging: each page is one short statement). */
  async *searchable(pageSize: number): AsyncIterable<CatalogItemState[]> {
    let after = NO_ID;
    for (;;) {
      const rows = await this.sequelize.query<StateRow>(
        `SELECT ${SELECT_STATE} FROM catalog.search_items WHERE ${SEARCHABLE} AND id > $1::uuid ORDER BY id LIMIT ${Math.trunc(pageSize)}`,
        { type: QueryTypes.SELECT, bind: [after] },
      );
      if (rows.length === 0) return;
      yield rows.map(toState);
      after = (rows[rows.length - 1] as StateRow).id;
      if (rows.length < pageSize) return;
    }
  }

  /** Moved by every reindex swap: a replica that sees it move reloads its index. */
  async epoch(): Promise<string> {
    const [row] = await this.sequelize.query<{ epoch: string }>(
      'SELECT epoch::text AS epoch FROM catalog.index_generation WHERE id = 1',
      {
        type: QueryTypes.SELECT,
      },
    );
    return row?.epoch ?? '0';
  }

  /**
   * One multi-row INSERT ... ON CONFLICT; the WHERE on the update makes an
   * older or equal version a no-op, so replays and out-of-order deliveries
   * converge. Returns the ids written.
   */
  private async write(table: string, rows: CatalogItemState[], transaction?: Transaction): Promise<string[]> {
    if (rows.length === 0) return [];
    const written = await this.sequelize.query<{ id: string }>(
      `INSERT INTO ${table} AS stored (${COLUMNS})
       SELECT ${COLUMNS}
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, slug text, name text, description text, type text,
         category text, tags text[], status text, visibility text, updated_at timestamptz, version integer, details jsonb, trust jsonb)
       ON CONFLICT (id) DO UPDATE SET ${UPDATE_FROM_EXCLUDED}, indexed_at = now()
       WHERE stored.version < EXCLUDED.version
       RETURNING stored.id`,
      { type: QueryTypes.SELECT, bind: [JSON.stringify(rows.map(toRecord))], transaction },
    );
    return written.map((r) => r.id);
  }

  /**
   * Builds `search_items_new` from the source while searches and upserts keep
   * using the live table, then swaps the two in one short transaction. Rows
   * the live table received after the rebuild began are carried over first
   * (newer versions win), so no event applied meanwhile is lost; anything
   * older is covered by the source, which is read after that moment.
   */
  async reindex(
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress> {
    if (this.reindexing) throw new Error('a reindex is already running in this process');
    this.reindexing = true;
    try {
      const [clock] = await this.sequelize.query<{ started: Date }>('SELECT now() AS started', {
        type: QueryTypes.SELECT,
      });
      const started = clock?.started ?? new Date(0);
      await this.sequelize.query('DROP TABLE IF EXISTS catalog.search_items_new');
      await this.sequelize.query(searchTableSql('search_items_new'));
      const progress: ReindexProgress = { indexed: 0 };
      for await (const batch of source) {
        for (let i = 0; i < batch.length; i += APPLY_CHUNK) {
          await this.write('catalog.search_items_new', newestPerId(batch.slice(i, i + APPLY_CHUNK)));
        }
        progress.indexed += batch.length;
        onProgress?.({ ...progress });
      }
      await this.sequelize.query(analyzeSql('catalog.search_items_new', ANALYZED_COLUMNS));
      await this.swap(started);
      this.logger.info({ indexed: progress.indexed }, 'search read model rebuilt');
      return progress;
    } catch (err) {
      // The live table never stopped serving; only the half-built one goes.
      await this.sequelize.query('DROP TABLE IF EXISTS catalog.search_items_new').catch(() => undefined);
      throw err;
    } finally {
      this.reindexing = false;
    }
  }

  private async swap(started: Date): Promise<void> {
    await this.sequelize.transaction(async (transaction) => {
      const q = (sql: string, bind?: unknown[]) => this.sequelize.query(sql, { transaction, bind });
      // EXCLUSIVE blocks upserts but not readers, while the late writes are carried over.
      await q('LOCK TABLE catalog.search_items IN EXCLUSIVE MODE');
      await q(
        `INSERT INTO catalog.search_items_new AS stored (${COLUMNS})
         SELECT o.id, o.slug, o.name, o.description, o.type, o.category, o.tags, o.status, o.visibility,
                o.updated_at, o.version, o.details, o.trust
         FROM catalog.search_items o LEFT JOIN catalog.search_items_new n ON n.id = o.id
         WHERE o.indexed_at >= $1 AND (n.id IS NULL OR n.version < o.version)
         ON CONFLICT (id) DO UPDATE SET ${UPDATE_FROM_EXCLUDED}`,
        [started],
      );
      await q('ALTER TABLE catalog.search_items RENAME TO search_items_old');
      await q('ALTER TABLE catalog.search_items_new RENAME TO search_items');
      await q('DROP TABLE catalog.search_items_old');
      for (const suffix of [...INDEX_SUFFIXES, 'pkey']) {
        await q(`ALTER INDEX catalog.search_items_new_${suffix} RENAME TO search_items_${suffix}`);
      }
      // In the same transaction: a replica that sees the new epoch also sees the new table.
      await q('UPDATE catalog.index_generation SET epoch = epoch + 1 WHERE id = 1');
    });
  }

  async health(): Promise<Health> {
    try {
      await this.sequelize.query('SELECT 1', { type: QueryTypes.SELECT });
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: `search database: ${(err as Error).message}` };
    }
  }

  /** The Sequelize instance belongs to the caller, who closes it. */
  async close(): Promise<void> {
    await this.statistics.settled();
  }
}

/** ON CONFLICT cannot touch a row twice in one statement: keep each id's newest state. */
function newestPerId(items: CatalogItemState[]): CatalogItemState[] {
  const byId = new Map<string, CatalogItemState>();
  for (const item of items) {
    const held = byId.get(item.id);
    if (!held || held.version < item.version) byId.set(item.id, item);
  }
  return [...byId.values()];
}

function toRecord(item: CatalogItemState): Record<string, unknown> {
  return {
    id: item.id,
    slug: item.slug,
    name: item.name,
    description: item.description,
    type: item.type,
    category: item.category,
    tags: item.tags,
    status: item.status,
    visibility: item.visibility,
    updated_at: item.updatedAt,
    version: item.version,
    details: detailsOf(item),
    trust: item.trust ?? null,
  };
}

function toState(row: StateRow): CatalogItemState {
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
    updatedAt: new Date(row.updatedAt).toISOString(),
    version: row.version,
    details: {
      ...NO_DETAILS,
      ...(typeof row.details === 'string' ? (JSON.parse(row.details) as Partial<ItemDetails>) : row.details),
    },
    ...(row.trust === null || row.trust === undefined
      ? {}
      : { trust: typeof row.trust === 'string' ? (JSON.parse(row.trust) as ItemTrust) : row.trust }),
  };
}
