import type { Migration } from '@skills/common';

/** The schema catalog-service owns. Tables are always written schema-qualified. */
export const CATALOG_SCHEMA = 'catalog';

/**
 * Forward-only migrations of the `catalog` schema, applied at start by
 * `runMigrations` (never `sync()`).
 */
export const catalogMigrations: Migration[] = [
  {
    id: '001_search_items_and_event_positions',
    up: `
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      -- The first read model, searched with SQL full text (kept as it ran; 004 reshapes it).
      CREATE TABLE catalog.search_items (
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
      CREATE INDEX search_items_tsv_idx ON catalog.search_items USING gin (document) WHERE status = 'active' AND visibility = 'public';
      -- Typo tolerance: trigram similarity of the query against the lower-cased name.
      CREATE INDEX search_items_name_trgm_idx ON catalog.search_items USING gin (lower(name) gin_trgm_ops) WHERE status = 'active' AND visibility = 'public';
      -- Browsing without q: newest first, optionally filtered; each index serves ORDER BY + LIMIT directly.
      CREATE INDEX search_items_newest_idx ON catalog.search_items (updated_at DESC, id) WHERE status = 'active' AND visibility = 'public';
      CREATE INDEX search_items_category_idx ON catalog.search_items (category, updated_at DESC, id) WHERE status = 'active' AND visibility = 'public';
      CREATE INDEX search_items_type_idx ON catalog.search_items (type, updated_at DESC, id) WHERE status = 'active' AND visibility = 'public';
      CREATE INDEX search_items_name_idx ON catalog.search_items (lower(name), id) WHERE status = 'active' AND visibility = 'public';

      -- Where each consumer group of the Postgres event log stands in
      -- collections.outbox, as the (txid, id) of the last row it handled.
      CREATE TABLE catalog.event_positions (
        group_name text PRIMARY KEY,
        last_txid xid8 NOT NULL,
        last_id bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: '002_dead_letters',
    up: `
      -- Events the indexer gave up on (docs/operations.md "Dead letters"):
      -- kept with why, so an operator can fix the cause and replay them.
      CREATE TABLE catalog.dead_letters (
        id bigserial PRIMARY KEY,
        group_name text NOT NULL,
        event_id text NOT NULL,
        item_id text NOT NULL,
        event jsonb NOT NULL,
        reason text NOT NULL,
        attempts int NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX dead_letters_group_failed_at ON catalog.dead_letters (group_name, failed_at);
    `,
  },
  {
    id: '003_index_generation',
    up: `
      -- Bumped after every change to the search read model; each replica
      -- polls it and empties its search cache when it moves (docs/search.md).
      CREATE TABLE catalog.index_generation (
        id int PRIMARY KEY CHECK (id = 1),
        generation bigint NOT NULL
      );
      INSERT INTO catalog.index_generation (id, generation) VALUES (1, 0);
    `,
  },
  {
    id: '004_read_model_for_memory_index',
    up: `
      -- Searches are answered by each replica's in-memory index (docs/search.md); the table
      -- keeps every item state and version, and tells the replicas what changed: each write
      -- stamps the row with its transaction id, read like the outbox (only below the oldest
      -- transaction still in flight, so a late commit is never skipped).
      DROP INDEX catalog.search_items_tsv_idx, catalog.search_items_name_trgm_idx, catalog.search_items_newest_idx,
        catalog.search_items_category_idx, catalog.search_items_type_idx, catalog.search_items_name_idx;
      ALTER TABLE catalog.search_items DROP COLUMN document;
      ALTER TABLE catalog.search_items ADD COLUMN written_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
      CREATE INDEX search_items_written_idx ON catalog.search_items (written_xid, id);
      -- Moved by every reindex swap: replicas then reload their index from the new table.
      ALTER TABLE catalog.index_generation ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
    `,
  },
  {
    id: '005_reindex_jobs',
    up: `
      -- Reindex jobs, readable from every replica (docs/search.md "Reindex"). The replica running
      -- a job renews heartbeat_at with its progress; a running job whose heartbeat stopped was
      -- abandoned by a replica that died, and is marked failed by the next reader.
      CREATE TABLE catalog.reindex_jobs (
        id uuid PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
        indexed bigint NOT NULL DEFAULT 0,
        total bigint,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        error text,
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      );
      -- One running job in the whole deployment, whichever replica took the request.
      CREATE UNIQUE INDEX reindex_jobs_one_running ON catalog.reindex_jobs ((true)) WHERE status = 'running';
    `,
  },
  {
    id: '006_item_details',
    up: `
      -- An item's registry details (publisher, release, licence, links, downloads) as the
      -- event carried them; a state from before details existed has none ('{}').
      ALTER TABLE catalog.search_items ADD COLUMN details jsonb NOT NULL DEFAULT '{}';
    `,
  },
  {
    id: '007_item_trust',
    up: `
      -- An item's trust (latest release, verdict, publisher verified: docs/trust.md) as the
      -- event carried it; a state from before trust existed has none (NULL: unscanned, unverified).
      ALTER TABLE catalog.search_items ADD COLUMN trust jsonb;
    `,
  },
  {
    id: '008_item_vectors',
    up: `
      -- Each item text's vector, by model and the SHA-256 of the text it was computed from
      -- (docs/search.md "Item vectors"): an unchanged item is never embedded again, whatever
      -- reindex or restart comes. Quantised to int8 (times scale): a quarter of float32's size.
      CREATE TABLE catalog.item_vectors (
        model text NOT NULL,
        content_hash text NOT NULL,
        vector bytea NOT NULL,
        scale real NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (model, content_hash)
      );
    `,
  },
];
