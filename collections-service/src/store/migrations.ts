import type { Migration } from '@skills/common';

/** The schema collections-service owns. Tables are always written schema-qualified. */
export const COLLECTIONS_SCHEMA = 'collections';

/**
 * Forward-only migrations of the `collections` schema, applied at start by
 * `runMigrations` (never `sync()`).
 */
export const collectionsMigrations: Migration[] = [
  {
    id: '001_items_and_outbox',
    up: `
      CREATE TABLE collections.items (
        id uuid PRIMARY KEY,
        slug text UNIQUE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        type text NOT NULL DEFAULT 'skill' CHECK (type IN ('skill', 'plugin')),
        category text,
        tags text[] NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'draft', 'archived', 'deleted')),
        visibility text NOT NULL CHECK (visibility IN ('public', 'private')),
        owner_account_id uuid,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((visibility = 'public') = (slug IS NOT NULL)),
        CHECK ((visibility = 'private') = (owner_account_id IS NOT NULL))
      );
      CREATE INDEX items_owner_idx ON collections.items (owner_account_id) WHERE owner_account_id IS NOT NULL;

      -- The transactional outbox. txid is the writing transaction's id: the
      -- Postgres event log reads only rows below the oldest in-flight
      -- transaction, ordered by (txid, id), so a late commit is never skipped.
      CREATE TABLE collections.outbox (
        id bigserial PRIMARY KEY,
        txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        topic text NOT NULL,
        key text NOT NULL,
        event jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      );
      CREATE INDEX outbox_txid_id_idx ON collections.outbox (txid, id);
      CREATE INDEX outbox_unpublished_idx ON collections.outbox (id) WHERE published_at IS NULL;

      -- A wake-up for LISTEN-ing consumers, sent at commit; only a hint, they also poll.
      CREATE FUNCTION collections.outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('skills_outbox', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER outbox_notify AFTER INSERT ON collections.outbox
        FOR EACH STATEMENT EXECUTE FUNCTION collections.outbox_notify();
    `,
  },
];
