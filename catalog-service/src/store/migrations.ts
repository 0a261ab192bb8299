import type { Migration } from '@skills/common';
import { searchTableSql } from '../engines/postgres/search-table';

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
      ${searchTableSql('search_items')}

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
];
