import type { Migration } from '@skills/common';

/**
 * Pins, the workspace policy and the workspace event log (docs/governance.md).
 * The log is written in the transaction of each change it records; readers
 * (the webhook fan-out) page it by `seq`, and `txid` lets them read only
 * below the oldest transaction still in flight, as the outbox does, so a
 * late commit is never skipped.
 */
export const pinsPolicyEventsMigration: Migration = {
  id: '011_pins_policy_events',
  up: `
    -- The pinned release of an entry; all null for an unpinned entry. The
    -- verdict is the one acknowledged when pinning (what verdict-changed drift compares with).
    ALTER TABLE collections.collection_entries
      ADD COLUMN pinned_version text,
      ADD COLUMN pinned_digest text,
      ADD COLUMN pinned_verdict text CHECK (pinned_verdict IN ('clean', 'suspicious', 'malicious', 'unscanned')),
      ADD CONSTRAINT collection_entries_pin_whole CHECK (
        (pinned_version IS NULL) = (pinned_digest IS NULL) AND (pinned_version IS NULL) = (pinned_verdict IS NULL));

    -- At most one policy per workspace; no row means the defaults.
    CREATE TABLE collections.workspace_policies (
      workspace_id uuid PRIMARY KEY REFERENCES collections.workspaces (id) ON DELETE CASCADE,
      minimum_verdict text NOT NULL CHECK (minimum_verdict IN ('clean', 'unscanned', 'suspicious')),
      verified_publishers_only boolean NOT NULL,
      allowed_publishers text[],
      allowed_licenses text[],
      allowed_types text[],
      denied_slugs text[] NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by uuid NOT NULL
    );

    -- What changed in a workspace, for its webhooks. No foreign key: the
    -- events of a deleted workspace stay until they are delivered.
    CREATE TABLE collections.workspace_events (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
      workspace_id uuid NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX workspace_events_txid_seq_idx ON collections.workspace_events (txid, seq);
    CREATE INDEX workspace_events_workspace_idx ON collections.workspace_events (workspace_id, seq);
  `,
};
