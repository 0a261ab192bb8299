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
];
