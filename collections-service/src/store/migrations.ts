import type { Migration } from '@skills/common';
import { pinsPolicyEventsMigration } from './migration-011-pins-policy-events';
import { webhooksMigration } from '../webhooks/webhooks.migration';

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
  {
    id: '002_workspaces',
    up: `
      CREATE TABLE collections.workspaces (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- Account ids are opaque here: accounts live in the gateway's schema,
      -- which this service never reads, so there is no foreign key to them.
      CREATE TABLE collections.workspace_members (
        workspace_id uuid NOT NULL REFERENCES collections.workspaces (id) ON DELETE CASCADE,
        account_id uuid NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, account_id)
      );
      CREATE INDEX workspace_members_account_idx ON collections.workspace_members (account_id);
    `,
  },
  {
    id: '003_collections_and_entries',
    up: `
      -- Personal and team collections share one table (exactly one owner:
      -- an account or a workspace), so entries have a single foreign key and
      -- one set of queries serves both.
      CREATE TABLE collections.collections (
        id uuid PRIMARY KEY,
        owner_account_id uuid,
        workspace_id uuid REFERENCES collections.workspaces (id) ON DELETE CASCADE,
        created_by uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
        description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((owner_account_id IS NULL) <> (workspace_id IS NULL))
      );
      CREATE INDEX collections_owner_idx ON collections.collections (owner_account_id, created_at)
        WHERE owner_account_id IS NOT NULL;
      CREATE INDEX collections_workspace_idx ON collections.collections (workspace_id, created_at)
        WHERE workspace_id IS NOT NULL;

      -- id is a sequence so entries list in the order they were added, even
      -- several added in one transaction (same now()). Deleting a collection
      -- removes its entries, never the items (no cascade towards items).
      CREATE TABLE collections.collection_entries (
        id bigserial PRIMARY KEY,
        collection_id uuid NOT NULL REFERENCES collections.collections (id) ON DELETE CASCADE,
        item_id uuid NOT NULL REFERENCES collections.items (id),
        added_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (collection_id, item_id)
      );
      CREATE INDEX collection_entries_item_idx ON collections.collection_entries (item_id);
    `,
  },
  {
    id: '004_idempotency_keys',
    up: `
      -- Idempotency-Key of the two creates: the first answer, stored in the
      -- transaction of the creation; rows older than 24 h are purged lazily.
      CREATE TABLE collections.idempotency_keys (
        account_id uuid NOT NULL,
        route text NOT NULL,
        key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
        request_hash text NOT NULL,
        status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, route, key)
      );
      CREATE INDEX idempotency_keys_created_idx ON collections.idempotency_keys (created_at);
    `,
  },
  {
    id: '005_items_written_xid',
    up: `
      -- The changes feed (GET /api/v1/skills/changes): every write of an item
      -- stamps the writing transaction's id, and the feed reads public items
      -- in (written_xid, id) order only below the oldest transaction still in
      -- flight, the outbox's rule: a late commit is never passed over.
      ALTER TABLE collections.items ADD COLUMN written_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
      CREATE FUNCTION collections.stamp_written_xid() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.written_xid := pg_current_xact_id();
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER items_written_xid BEFORE UPDATE ON collections.items
        FOR EACH ROW EXECUTE FUNCTION collections.stamp_written_xid();
      CREATE INDEX items_changes_idx ON collections.items (written_xid, id) WHERE visibility = 'public';
    `,
  },
  {
    id: '006_item_details',
    up: `
      -- Registry details of an item (publisher, release, licence, links,
      -- downloads). The release is release_version: "version" already counts
      -- the item's states. downloads is NULL until first counted (read as
      -- 0), so an upsert without a count keeps the stored one.
      ALTER TABLE collections.items
        ADD COLUMN publisher text,
        ADD COLUMN release_version text,
        ADD COLUMN license text,
        ADD COLUMN repository_url text,
        ADD COLUMN homepage_url text,
        ADD COLUMN downloads bigint CHECK (downloads >= 0);
    `,
  },
  {
    id: '007_items_was_active',
    up: `
      -- The changes feed shows only items a mirror could have held: an item
      -- that was never active (a draft from its first write on) is not in
      -- the feed at all, so drafts stay unseen. was_active turns true on
      -- the first write that makes the item active and never turns back.
      ALTER TABLE collections.items ADD COLUMN was_active boolean NOT NULL DEFAULT false;
      -- Existing rows: every item active now or written more than once may
      -- have been active (the history is not kept); a draft still at its
      -- first version never was.
      UPDATE collections.items SET was_active = true WHERE status = 'active' OR version > 1;
      CREATE FUNCTION collections.remember_active() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.was_active := NEW.status = 'active' OR (TG_OP = 'UPDATE' AND OLD.was_active);
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER items_was_active BEFORE INSERT OR UPDATE ON collections.items
        FOR EACH ROW EXECUTE FUNCTION collections.remember_active();
    `,
  },
  {
    id: '008_workspace_invitations',
    up: `
      -- Invitations to a workspace: their terms and state. The secret of the
      -- link is the gateway's (a one-time link of gateway.one_time_links,
      -- docs/security.md): this service never sees it, and accepts an invitation
      -- only for the account the gateway signed a principal for.
      CREATE TABLE collections.workspace_invitations (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES collections.workspaces (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
        email text CHECK (char_length(email) <= 254),
        created_by uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        accepted_by uuid,
        accepted_at timestamptz
      );
      CREATE INDEX workspace_invitations_pending_idx ON collections.workspace_invitations (workspace_id, created_at)
        WHERE revoked_at IS NULL AND accepted_at IS NULL;
    `,
  },
  {
    id: '009_releases_verdicts_publishers',
    up: `
      -- Releases of a public item (docs/trust.md): immutable but for their
      -- yank and their verdict. verdict is derived (override, else the worst
      -- of each scanner's latest scan, else unscanned) and kept here so that
      -- lists and the changes feed read it without the history.
      CREATE TABLE collections.releases (
        item_id uuid NOT NULL REFERENCES collections.items (id) ON DELETE CASCADE,
        version text NOT NULL CHECK (char_length(version) <= 64),
        digest text NOT NULL CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
        published_at timestamptz NOT NULL DEFAULT now(),
        source_repository text NOT NULL CHECK (char_length(source_repository) <= 500),
        source_ref text NOT NULL CHECK (char_length(source_ref) <= 200),
        yanked_at timestamptz,
        yank_reason text,
        verdict text NOT NULL DEFAULT 'unscanned' CHECK (verdict IN ('clean', 'suspicious', 'malicious', 'unscanned')),
        PRIMARY KEY (item_id, version),
        CHECK ((yanked_at IS NULL) = (yank_reason IS NULL))
      );

      -- Every scan, override and cleared override of a release, never updated:
      -- a scanner's latest scan and the override in force are the newest rows.
      CREATE TABLE collections.release_verdicts (
        id bigserial PRIMARY KEY,
        item_id uuid NOT NULL,
        version text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('scan', 'override', 'override-cleared')),
        scanner text,
        verdict text CHECK (verdict IN ('clean', 'suspicious', 'malicious')),
        summary text,
        report_url text,
        note text,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (item_id, version) REFERENCES collections.releases (item_id, version) ON DELETE CASCADE,
        CHECK ((kind = 'scan') = (scanner IS NOT NULL)),
        CHECK ((kind = 'override-cleared') = (verdict IS NULL))
      );
      CREATE INDEX release_verdicts_release_idx ON collections.release_verdicts (item_id, version, id);

      -- A publisher is the name items carry; operators verify it.
      CREATE TABLE collections.publishers (
        name text PRIMARY KEY CHECK (char_length(name) <= 200),
        verified boolean NOT NULL DEFAULT false,
        verified_at timestamptz,
        note text,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX items_publisher_idx ON collections.items (publisher) WHERE publisher IS NOT NULL;

      -- The item's trust as its releases give it, written with every change
      -- of them, so the outbox event and every read carry it without a join
      -- over releases (publisherVerified is read from publishers).
      ALTER TABLE collections.items
        ADD COLUMN latest_version text,
        ADD COLUMN verdict text NOT NULL DEFAULT 'unscanned' CHECK (verdict IN ('clean', 'suspicious', 'malicious', 'unscanned')),
        ADD COLUMN blocked_reason text;
    `,
  },
  {
    id: '010_reports',
    up: `
      -- Reports of public items by accounts (docs/trust.md "Reports"). The
      -- reporter's id is opaque here, like every account id. An item is never
      -- deleted (a tombstone is an update), so the foreign key never blocks.
      -- A report is open until an operator resolves or dismisses it with a note.
      CREATE TABLE collections.reports (
        id uuid PRIMARY KEY,
        item_id uuid NOT NULL REFERENCES collections.items (id),
        reporter_account_id uuid NOT NULL,
        reason text NOT NULL CHECK (reason IN ('malware', 'credential-theft', 'prompt-injection', 'impersonation', 'spam', 'broken', 'other')),
        text text NOT NULL DEFAULT '' CHECK (char_length(text) <= 2000),
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
        created_at timestamptz NOT NULL DEFAULT now(),
        handled_at timestamptz,
        note text CHECK (char_length(note) BETWEEN 1 AND 1000),
        CHECK ((status = 'open') = (handled_at IS NULL)),
        CHECK ((status = 'open') = (note IS NULL))
      );
      -- the rate limit counts one account's reports of the last 24 h
      CREATE INDEX reports_reporter_idx ON collections.reports (reporter_account_id, created_at);
      -- the operators' queue: newest first, all or by status
      CREATE INDEX reports_created_idx ON collections.reports (created_at DESC, id DESC);
      CREATE INDEX reports_status_idx ON collections.reports (status, created_at DESC, id DESC);
      CREATE INDEX reports_item_idx ON collections.reports (item_id);
    `,
  },
  pinsPolicyEventsMigration,
  webhooksMigration,
];
