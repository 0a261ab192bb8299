/**
 * Pure builders of the PostgresEngine search statements (no I/O), so the
 * query text and its parameters can be read and tested apart from the driver.
 */
import type { SearchQuery } from '../search-engine';
import { SEARCHABLE, TS_CONFIG } from './search-table';

/** Matches beyond this are not counted (DESIGN.md §6: capped counts); equals the deepest page. */
export const COUNT_CAP = 10_000;
/** At most this many query terms reach Postgres; the rest of a long q adds cost, not precision. */
const MAX_TERMS = 8;
/**
 * Relevance ranks at most this many matches: the newest ones (read in index
 * order, cheap), then any further matches follow newest first. ts_rank
 * detoasts and scores every row it sees, which at 100k items made one broad
 * word (15,000 matches) cost ~100 ms against ~1 ms for the newest-first
 * order; queries with fewer matches (the usual case) rank exactly as before.
 */
export const RANK_CANDIDATES = 1_000;
/** Fewer FTS matches than this and the trigram typo fallback joins in. */
export const TYPO_FALLBACK_BELOW = 5;

/**
 * Turns free text into a `to_tsquery` string: every term must match, the last
 * one as a prefix (so "kube" finds "kubernetes" while typing). Terms keep only
 * letters and digits, so no tsquery syntax (`&`, `|`, `!`, `:`, quotes) can be
 * injected; `websearch_to_tsquery` cannot do prefixes, hence this builder.
 */
export function toPrefixTsQuery(q: string): string | undefined {
  const terms = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
  if (terms.length === 0) return undefined;
  return terms.map((t, i) => (i === terms.length - 1 ? `${t}:*` : t)).join(' & ');
}

export type MatchMode = 'all' | 'fts' | 'fts+typo';

export interface SearchStatement {
  /** `SELECT ...` of one page */
  rows: string;
  /** capped count of every match */
  count: string;
  bind: unknown[];
  /** the count statement takes no limit/offset */
  countBind: unknown[];
}

/**
 * Builds the page and count statements. Bind order: $1 tsquery, $2 lower-cased
 * q (trigram), then the filters in order, then limit and offset.
 */
export function buildSearchStatement(query: SearchQuery, mode: MatchMode, table = 'catalog.search_items'): SearchStatement {
  const bind: unknown[] = [];
  const param = (value: unknown): string => {
    bind.push(value);
    return `$${bind.length}`;
  };
  const where = [SEARCHABLE];
  let tsq = '';
  let rank = '';
  if (mode !== 'all') {
    tsq = `to_tsquery('${TS_CONFIG}', ${param(toPrefixTsQuery(query.q ?? '') ?? '')})`;
    if (mode === 'fts') {
      where.push(`document @@ ${tsq}`);
      rank = `ts_rank(document, ${tsq}) DESC, `;
    } else {
      const qLower = param((query.q ?? '').toLowerCase());
      where.push(`(document @@ ${tsq} OR lower(name) %> ${qLower})`);
      // Exact (FTS) matches first, then the closest spellings of the name.
      rank = `(document @@ ${tsq}) DESC, ts_rank(document, ${tsq}) DESC, word_similarity(${qLower}, lower(name)) DESC, `;
    }
  }
  if (query.category !== undefined) where.push(`category = ${param(query.category)}`);
  if (query.type !== undefined) where.push(`type = ${param(query.type)}`);
  const filter = where.join(' AND ');
  const order = orderBy(query, rank);
  const count = `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${table} WHERE ${filter} LIMIT ${COUNT_CAP}) AS capped`;
  const countBind = [...bind];
  const limit = param(query.limit);
  const offset = param((query.page - 1) * query.limit);
  const rows =
    mode === 'fts' && query.sort === 'relevance'
      ? boundedRelevance(table, filter, tsq, query.page * query.limit, limit, offset)
      : `SELECT ${COLUMNS} FROM ${table} WHERE ${filter} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
  return { rows, count, bind, countBind };
}

const COLUMNS = 'id, slug, name, description, type, category, tags, updated_at';

/**
 * One total order for every page: the RANK_CANDIDATES newest matches by
 * ts_rank (ties newest first), then the remaining matches newest first. The
 * second part is only read when the page reaches past the first.
 */
function boundedRelevance(table: string, filter: string, tsq: string, windowEnd: number, limit: string, offset: string): string {
  const newest = `SELECT ${COLUMNS}, document FROM ${table} WHERE ${filter} ORDER BY updated_at DESC, id`;
  let parts = `SELECT ${COLUMNS}, 0 AS part, ts_rank(document, ${tsq}) AS score FROM (${newest} LIMIT ${RANK_CANDIDATES}) AS ranked`;
  // The rest is read only as far as the page reaches (page × limit, an integer ≤ 10,000 from the
  // validated query): at 1M items a broad word's deep page otherwise sorted all 150k matches (~1 s).
  if (windowEnd > RANK_CANDIDATES) {
    parts += ` UNION ALL SELECT ${COLUMNS}, 1 AS part, 0 AS score FROM (${newest} LIMIT ${Math.trunc(windowEnd - RANK_CANDIDATES)} OFFSET ${RANK_CANDIDATES}) AS rest`;
  }
  return `SELECT ${COLUMNS} FROM (${parts}) AS u ORDER BY part, score DESC, updated_at DESC, id LIMIT ${limit} OFFSET ${offset}`;
}

function orderBy(query: SearchQuery, rank: string): string {
  if (query.sort === 'name') return 'lower(name), id';
  if (query.sort === 'relevance' && rank) return `${rank}updated_at DESC, id`;
  return 'updated_at DESC, id';
}
