import type { Migration } from '@skills/common';

/**
 * Signed webhooks (docs/governance.md "Signed webhooks"): endpoints, their
 * delivery log, and the readers' positions. The events come from
 * `workspace_events` and the pins from `collection_entries` (migration 011).
 */
export const webhooksMigration: Migration = {
  id: '012_webhooks',
  up: `
    -- The secret is kept as issued: signing needs it, so it cannot be hashed.
    CREATE TABLE collections.webhooks (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES collections.workspaces (id) ON DELETE CASCADE,
      url text NOT NULL CHECK (char_length(url) <= 2000),
      events text[] NOT NULL,
      description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 500),
      secret text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhooks_workspace_idx ON collections.webhooks (workspace_id, created_at);

    -- One row per (endpoint, event): the body is stored as sent, so a retry
    -- sends the same bytes. next_attempt_at doubles as the sender's lease.
    CREATE TABLE collections.webhook_deliveries (
      id uuid PRIMARY KEY,
      webhook_id uuid NOT NULL REFERENCES collections.webhooks (id) ON DELETE CASCADE,
      event_id uuid NOT NULL,
      event_type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'abandoned')),
      attempts integer NOT NULL DEFAULT 0,
      last_status_code integer,
      last_error text,
      next_attempt_at timestamptz,
      first_attempt_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz,
      UNIQUE (webhook_id, event_id)
    );
    CREATE INDEX webhook_deliveries_due_idx ON collections.webhook_deliveries (next_attempt_at)
      WHERE status IN ('pending', 'failed');
    CREATE INDEX webhook_deliveries_log_idx ON collections.webhook_deliveries (webhook_id, created_at DESC, id DESC);

    -- Where each reader of an ordered log stands (the fan-out, the verdict watch).
    CREATE TABLE collections.webhook_positions (
      reader text PRIMARY KEY,
      last_txid xid8 NOT NULL,
      last_id bigint NOT NULL
    );

    -- The verdict last announced per workspace and pinned release: a replayed
    -- item event finds it equal to the current one and writes nothing.
    CREATE TABLE collections.webhook_verdicts_seen (
      workspace_id uuid NOT NULL,
      item_id uuid NOT NULL,
      version text NOT NULL,
      verdict text NOT NULL,
      PRIMARY KEY (workspace_id, item_id, version)
    );

    -- The drift causes last announced per team collection entry (drift-watch.ts).
    CREATE TABLE collections.webhook_drift_seen (
      collection_id uuid NOT NULL REFERENCES collections.collections (id) ON DELETE CASCADE,
      item_id uuid NOT NULL,
      cause text NOT NULL,
      PRIMARY KEY (collection_id, item_id, cause)
    );
  `,
};
