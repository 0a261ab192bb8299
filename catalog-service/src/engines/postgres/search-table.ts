/**
 * DDL and shared SQL fragments of the PostgresEngine read model. The same DDL
 * builds `catalog.search_items` (migration) and `catalog.search_items_new`
 * (reindex), so both generations have identical columns and indexes; index
 * names derive from the table name and are renamed at the swap.
 */

/** Text search configuration: English stemming ("deploying" finds "deploy"). */
export const TS_CONFIG = 'english';

/** Only these rows are searchable; every partial index carries the same predicate. */
export const SEARCHABLE = `status = 'active' AND visibility = 'public'`;

/**
 * The weighted document: name A, description B, tags C. Computed at write time
 * (not a generated column: array_to_string is only STABLE).
 */
export function documentSql(prefix = ''): string {
  return (
    `setweight(to_tsvector('${TS_CONFIG}', ${prefix}name), 'A') || ` +
    `setweight(to_tsvector('${TS_CONFIG}', ${prefix}description), 'B') || ` +
    `setweight(to_tsvector('${TS_CONFIG}', array_to_string(${prefix}tags, ' ')), 'C')`
  );
}

/** Index suffixes, so the swap can rename `<new table>_<suffix>` to `search_items_<suffix>`. */
export const INDEX_SUFFIXES = ['tsv_idx', 'name_trgm_idx', 'newest_idx', 'category_idx', 'type_idx', 'name_idx'] as const;

export function searchTableSql(table: string): string {
  const t = `catalog.${table}`;
  return `
    CREATE TABLE ${t} (
      id uuid PRIMARY KEY,
      slug text,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      type text NOT NULL,
      category text,
      tags text[] NOT NULL DEFAULT '{}',
      status text NOT NULL,
      visibility text NOT NULL,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL,
      document tsvector NOT NULL,
      -- when this engine last wrote the row: a reindex carries over rows written after it began
      indexed_at timestamptz NOT NULL DEFAULT now()
    );
    -- Full-text matches, only over searchable rows (tombstones stay out of every index below).
    CREATE INDEX ${table}_tsv_idx ON ${t} USING gin (document) WHERE ${SEARCHABLE};
    -- Typo tolerance: trigram similarity of the query against the lower-cased name.
    CREATE INDEX ${table}_name_trgm_idx ON ${t} USING gin (lower(name) gin_trgm_ops) WHERE ${SEARCHABLE};
    -- Browsing without q: newest first, optionally filtered; each index serves ORDER BY + LIMIT directly.
    CREATE INDEX ${table}_newest_idx ON ${t} (updated_at DESC, id) WHERE ${SEARCHABLE};
    CREATE INDEX ${table}_category_idx ON ${t} (category, updated_at DESC, id) WHERE ${SEARCHABLE};
    CREATE INDEX ${table}_type_idx ON ${t} (type, updated_at DESC, id) WHERE ${SEARCHABLE};
    CREATE INDEX ${table}_name_idx ON ${t} (lower(name), id) WHERE ${SEARCHABLE};
  `;
}
