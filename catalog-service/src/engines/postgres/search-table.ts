/**
 * DDL of the search read model table. The same DDL builds
 * `catalog.search_items_new` for a reindex as migrations 001 + 004 + 006 + 007 built
 * `catalog.search_items`, so both generations have identical columns and
 * indexes; index names derive from the table name and are renamed at the swap.
 */

/** Only these rows are searchable. */
export const SEARCHABLE = `status = 'active' AND visibility = 'public'`;

/** Index suffixes, so the swap can rename `<new table>_<suffix>` to `search_items_<suffix>`. */
export const INDEX_SUFFIXES = ['written_idx'] as const;

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
      details jsonb NOT NULL DEFAULT '{}',
      -- the item's trust (common/src/events.ts ItemTrust); null for a state from before trust existed
      trust jsonb,
      -- when this engine last wrote the row: a reindex carries over rows written after it began
      indexed_at timestamptz NOT NULL DEFAULT now(),
      -- the transaction of the last write: replicas follow the table in (written_xid, id) order
      written_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
    );
    CREATE INDEX ${table}_written_idx ON ${t} (written_xid, id);
  `;
}
