import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Logger } from 'pino';
import type { CatalogItemState, Health } from '@skills/common';
import type {
  ApplyResult,
  CatalogItem,
  ReindexProgress,
  SearchEngine,
  SearchQuery,
  SearchResult,
} from '../search-engine';
import { buildSearchStatement, TYPO_FALLBACK_BELOW, type MatchMode } from './search-sql';
import { documentSql, INDEX_SUFFIXES, searchTableSql } from './search-table';

export interface PostgresEngineOptions {
  sequelize: Sequelize;
  logger: Logger;
}

interface ItemRow {
  id: string;
  slug: string;
  name: string;
  description: string;
  type: CatalogItem['type'];
  category: string | null;
  tags: string[];
  updated_at: Date;
}

const COLUMNS = 'id, slug, name, description, type, category, tags, status, visibility, updated_at, version';
/** Items per INSERT statement: one JSON parameter, bounded so one statement stays short. */
const APPLY_CHUNK = 1_000;
/**
 * Rows written before the engine refreshes the planner statistics itself.
 * Autovacuum analyzes only after a minute or more; until then a table filled
 * by an import is planned as nearly empty (measured at 100k rows: 200–500 ms
 * bitmap scans over every row instead of 0.1 ms index scans).
 */
const ANALYZE_AFTER_ROWS = 5_000;
/** ... and again once the writes since exceed this share of the rows at the last ANALYZE. */
const ANALYZE_AFTER_SHARE = 0.2;
/**
 * The tail of a bulk load (fewer rows than the thresholds) would otherwise
 * wait for autovacuum in the GIN pending list: once writes pause this long
 * after at least this many rows, the same refresh runs.
 */
const ANALYZE_TAIL_ROWS = 500;
const ANALYZE_TAIL_QUIET_MS = 1_000;

/**
 * The search read model in Postgres (DESIGN.md §3, §6): its own table with a
 * weighted tsvector, pg_trgm typo fallback and partial indexes over the
 * searchable rows. Every item state is stored (tombstones too), so versions
 * are remembered and an old event can never resurrect a newer state.
 */
export class PostgresEngine implements SearchEngine {
  private readonly sequelize: Sequelize;
  private readonly logger: Logger;
  private reindexing = false;
  private writtenSinceAnalyze = 0;
  private rowsAtAnalyze = 0;
  private analyzing: Promise<void> | undefined;
  private tailTimer: NodeJS.Timeout | undefined;

  constructor(options: PostgresEngineOptions) {
    this.sequelize = options.sequelize;
    this.logger = options.logger;
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    if (query.q === undefined) return this.run(query, 'all');
    const fts = await this.run(query, 'fts');
    // Trigram similarity is the costly part; spend it only when FTS finds (almost) nothing.
    if (fts.total >= TYPO_FALLBACK_BELOW) return fts;
    return this.run(query, 'fts+typo');
  }

  private async run(query: SearchQuery, mode: MatchMode): Promise<SearchResult> {
    const stmt = buildSearchStatement(query, mode);
    const rows = await this.sequelize.query<ItemRow>(stmt.rows, { type: QueryTypes.SELECT, bind: stmt.bind });
    const offset = (query.page - 1) * query.limit;
    // A short page that is not past the end tells the exact total: no count statement. Selective
    // queries (most of the mix) then cost one statement; under load that is throughput.
    if (rows.length < query.limit && (rows.length > 0 || offset === 0)) {
      return { items: rows.map(toCatalogItem), total: offset + rows.length };
    }
    const counted = await this.sequelize.query<{ total: number }>(stmt.count, { type: QueryTypes.SELECT, bind: stmt.countBind });
    return { items: rows.map(toCatalogItem), total: counted[0]?.total ?? 0 };
  }

  async apply(items: CatalogItemState[]): Promise<ApplyResult> {
    let applied = 0;
    for (let i = 0; i < items.length; i += APPLY_CHUNK) {
      applied += await this.upsert('catalog.search_items', items.slice(i, i + APPLY_CHUNK));
    }
    this.writtenSinceAnalyze += applied;
    await this.analyzeIfGrown();
    clearTimeout(this.tailTimer);
    if (this.writtenSinceAnalyze >= ANALYZE_TAIL_ROWS) {
      // unref: a pending refresh never keeps the process alive.
      this.tailTimer = setTimeout(() => void this.analyzeIfGrown(true), ANALYZE_TAIL_QUIET_MS).unref();
    }
    return { applied, stale: items.length - applied };
  }

  /** ANALYZE (and merge the GIN pending lists) once bulk writes changed the table enough to mislead the planner. */
  private async analyzeIfGrown(tail = false): Promise<void> {
    const threshold = tail ? ANALYZE_TAIL_ROWS : Math.max(ANALYZE_AFTER_ROWS, this.rowsAtAnalyze * ANALYZE_AFTER_SHARE);
    if (this.writtenSinceAnalyze < threshold || this.analyzing) return;
    this.writtenSinceAnalyze = 0;
    this.analyzing = (async () => {
      try {
        await this.sequelize.query('ANALYZE catalog.search_items');
        // Bulk inserts park GIN entries in the pending list, which every search then scans linearly
        // (measured at 100k rows: 11.7 ms against 0.2 ms for the tsv bitmap scan); merge it now.
        await this.sequelize.query(
          "SELECT gin_clean_pending_list('catalog.search_items_tsv_idx'::regclass), gin_clean_pending_list('catalog.search_items_name_trgm_idx'::regclass)",
        );
        const [row] = await this.sequelize.query<{ n: number }>(
          "SELECT reltuples::bigint AS n FROM pg_class WHERE oid = 'catalog.search_items'::regclass",
          { type: QueryTypes.SELECT },
        );
        this.rowsAtAnalyze = Number(row?.n ?? 0);
      } catch (err) {
        // Statistics are an optimisation: a failure must not fail the batch (autovacuum catches up).
        this.logger.warn({ err }, 'ANALYZE of the search table failed');
      } finally {
        this.analyzing = undefined;
      }
    })();
    await this.analyzing;
  }

  /**
   * One multi-row INSERT ... ON CONFLICT; the WHERE on the update makes an
   * older or equal version a no-op, so replays and out-of-order deliveries
   * converge. Returns how many rows were written.
   */
  private async upsert(table: string, items: CatalogItemState[], transaction?: Transaction): Promise<number> {
    const rows = newestPerId(items);
    if (rows.length === 0) return 0;
    const written = await this.sequelize.query<{ id: string }>(
      `INSERT INTO ${table} AS stored (${COLUMNS}, document)
       SELECT ${COLUMNS}, ${documentSql('r.')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, slug text, name text, description text, type text,
         category text, tags text[], status text, visibility text, updated_at timestamptz, version integer)
       ON CONFLICT (id) DO UPDATE SET
         slug = EXCLUDED.slug, name = EXCLUDED.name, description = EXCLUDED.description, type = EXCLUDED.type,
         category = EXCLUDED.category, tags = EXCLUDED.tags, status = EXCLUDED.status,
         visibility = EXCLUDED.visibility, updated_at = EXCLUDED.updated_at, version = EXCLUDED.version,
         document = EXCLUDED.document, indexed_at = now()
       WHERE stored.version < EXCLUDED.version
       RETURNING stored.id`,
      { type: QueryTypes.SELECT, bind: [JSON.stringify(rows.map(toRecord))], transaction },
    );
    return written.length;
  }

  /**
   * Builds `search_items_new` from the source while searches and apply() keep
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
          await this.upsert('catalog.search_items_new', batch.slice(i, i + APPLY_CHUNK));
        }
        progress.indexed += batch.length;
        onProgress?.({ ...progress });
      }
      // The new table goes live with statistics, so its first searches are planned for its real size.
      await this.sequelize.query('ANALYZE catalog.search_items_new');
      await this.swap(started);
      this.logger.info({ indexed: progress.indexed }, 'search index rebuilt');
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
      // EXCLUSIVE blocks apply() but not searches, while the late writes are carried over.
      await q('LOCK TABLE catalog.search_items IN EXCLUSIVE MODE');
      await q(
        `INSERT INTO catalog.search_items_new AS stored (${COLUMNS}, document)
         SELECT o.id, o.slug, o.name, o.description, o.type, o.category, o.tags, o.status, o.visibility,
                o.updated_at, o.version, o.document
         FROM catalog.search_items o LEFT JOIN catalog.search_items_new n ON n.id = o.id
         WHERE o.indexed_at >= $1 AND (n.id IS NULL OR n.version < o.version)
         ON CONFLICT (id) DO UPDATE SET
           slug = EXCLUDED.slug, name = EXCLUDED.name, description = EXCLUDED.description, type = EXCLUDED.type,
           category = EXCLUDED.category, tags = EXCLUDED.tags, status = EXCLUDED.status,
           visibility = EXCLUDED.visibility, updated_at = EXCLUDED.updated_at, version = EXCLUDED.version,
           document = EXCLUDED.document`,
        [started],
      );
      await q('ALTER TABLE catalog.search_items RENAME TO search_items_old');
      await q('ALTER TABLE catalog.search_items_new RENAME TO search_items');
      await q('DROP TABLE catalog.search_items_old');
      for (const suffix of [...INDEX_SUFFIXES, 'pkey']) {
        await q(`ALTER INDEX catalog.search_items_new_${suffix} RENAME TO search_items_${suffix}`);
      }
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
    clearTimeout(this.tailTimer);
    await this.analyzing;
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
  };
}

function toCatalogItem(row: ItemRow): CatalogItem {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    type: row.type,
    category: row.category ?? '',
    tags: row.tags,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
